import Foundation
import Logging
import MeridianCore
import PostgresNIO

/// A write of any size to PostGIS in one transaction, its rows streamed with `COPY … FROM STDIN` (every flyer read
/// and validated on a thread of its own, a few thousand ahead, and its geometry, search boxes and words encoded before
/// it is sent, so an invalid one names its row and field and rolls everything back):
///
/// - into an empty table, straight into `flyers`, its secondary indexes dropped first and built once after (the
///   table is locked for the write; the change log's statement trigger runs once, for the whole `COPY`);
/// - else into a temporary table, then into `flyers` with one `INSERT … SELECT` (replacing existing ids with
///   `.upsert`); a large write (20,000 flyers and at least an eighth of those stored) builds the secondary indexes
///   once after it, in the same transaction.
///
/// Both bulk ways leave the words' text index to `PostGISWordsIndex`, which builds it after the commit.
///
/// A repeated id, or an existing id with `.create`, rolls everything back too.
struct PostGISImport {
    let store: PostGISFlyerStore
    /// Seconds each wait for the server may take (a statement over every row written gets more, `bulkAllowance`);
    /// past it the write is given up as `unavailable` (`ServerWait`).
    var stepAllowance: Double

    init(store: PostGISFlyerStore, stepAllowance: Double? = nil) {
        self.store = store
        self.stepAllowance = stepAllowance ?? max(store.deadline, 30)
    }

    /// A statement over `rows` rows (an `INSERT … SELECT`, an index build): PostgreSQL does at least 5,000 rows a
    /// second at that, on any machine Meridian runs beside.
    static func bulkAllowance(rows: Int, step: Double) -> Double { max(step, Double(rows) / 5_000) }

    func write(
        from source: some FlyerSource, mode: FlyerWriteMode,
        progress: ((FlyerWriteProgress) -> Void)?
    ) async throws(FlyerStoreError) -> Int {
        let checkRepeatedIDs = !source.rejectsRepeatedIDs
        let reader = FlyerReadAhead(source)
        defer { reader.stop() }
        let wait = ServerWait()
        // Called on the write's task while this one waits for it, never beside anything here.
        nonisolated(unsafe) let report = progress
        let outcome: (written: Int, rebuilt: Bool)
        do {
            outcome = try await withDeadline(wait) { [self] in
                try await stream(reader, mode: mode, checkRepeatedIDs: checkRepeatedIDs, wait: wait, progress: report)
            }
        } catch {
            if let overdue = wait.overdue {
                throw .unavailable(
                    "PostgreSQL at \(store.location.host):\(store.location.port) stopped answering during the write (nothing for \(Int(overdue)) s); the write was given up and its transaction is rolled back; check the server, then write again"
                )
            }
            throw PostGISErrors.describe(error, location: store.location)
        }
        if outcome.rebuilt { store.wordsIndex.ensure(store) }
        return outcome.written
    }

    /// The write's transaction: the rows streamed with `COPY`, then the statements over all of them. Every wait for
    /// the server goes through `wait`; once given up (cancelled), it stops before it could commit.
    private func stream(
        _ reader: FlyerReadAhead, mode: FlyerWriteMode, checkRepeatedIDs: Bool, wait: ServerWait,
        progress: ((FlyerWriteProgress) -> Void)?
    ) async throws(FlyerStoreError) -> (written: Int, rebuilt: Bool) {
        let logger = store.logger
        let columns = PostGISRows.writeColumns
        let list = columns.joined(separator: ", ")
        let conflict =
            mode == .upsert
            ? " ON CONFLICT (id) DO UPDATE SET "
                + columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            : ""
        let step = stepAllowance
        var failure: FlyerStoreError?
        var written = 0
        var rebuild = false
        do {
            try await wait.server(allowing: step) {
                try await store.client.withTransaction(logger: logger) { connection in
                    // Another write holding the table (an import elsewhere) makes this one wait `step` seconds at most,
                    // then `busy`, as SpatiaLite's busy timeout does; the server answers that in any case.
                    try await connection.limitLockWaits(to: step, logger: logger)
                    try await wait.server(allowing: 2 * step) {
                        try await connection.query("LOCK TABLE flyers IN SHARE ROW EXCLUSIVE MODE", logger: logger)
                    }
                    var empty = true
                    for try await exists in try await connection.query(
                        "SELECT EXISTS (SELECT 1 FROM flyers)", logger: logger
                    ).decode(Bool.self) {
                        empty = !exists
                    }
                    if empty {
                        try await Self.dropIndexes(connection, logger: logger)
                    } else {
                        try await connection.query(
                            """
                            CREATE TEMPORARY TABLE flyers_import (id text COLLATE "C", title text, description text, address text, category text,
                                category_key text, url text, radius_m double precision, valid_from double precision, valid_until double precision,
                                geog geography, search_boxes geometry, words text) ON COMMIT DROP
                            """, logger: logger)
                    }
                    let copies = store.copies
                    try await copies.stream {
                        try await connection.copyFrom(
                            table: empty ? "flyers" : "flyers_import", columns: columns, logger: logger
                        ) { writer in
                            var seen: [String: Int] = [:]
                            var buffer = ByteBuffer()
                            var scratch: [UInt8] = []
                            var words = SearchWords()
                            while true {
                                let batch: FlyerReadAhead.Batch?
                                do {
                                    batch = try await wait.local { try await BlockingWork.run { try reader.next() } }
                                } catch {
                                    failure = (error as? FlyerInputError).map { .invalidInput($0) }
                                    throw error
                                }
                                guard let batch else { break }
                                do throws(FlyerStoreError) {
                                    try copies.checkOpen()
                                } catch {
                                    failure = error
                                    throw error
                                }
                                for flyer in batch.flyers {
                                    if checkRepeatedIDs, let first = seen.updateValue(written, forKey: flyer.id) {
                                        failure = .repeatedID(flyer.id, first: first, second: written)
                                        throw FlyerStoreError.repeatedID(flyer.id, first: first, second: written)
                                    }
                                    PostGISRows.appendCopyLine(flyer, to: &buffer, scratch: &scratch, words: &words)
                                    written += 1
                                }
                                // Sent from a task that this one's cancellation does not reach: postgres-nio closes
                                // the connection when a write waiting for the server is cancelled, and then stops the
                                // process when the COPY ends (a failed precondition). A given-up write stops at the
                                // check below instead, with a `CopyFail`.
                                let sending = buffer
                                try await wait.server(allowing: step) {
                                    try await Task { try await writer.write(sending) }.value
                                }
                                try Task.checkCancellation()
                                buffer.clear()
                                progress?(FlyerWriteProgress(written: written, fractionRead: batch.fractionRead))
                            }
                        }
                    }
                    // Statements over every row written (copying them in, building indexes) may take a while.
                    let bulk = Self.bulkAllowance(rows: written, step: step)
                    rebuild = empty
                    if !empty {
                        // Like SpatiaLite's bulk mode: a write that is large, absolutely and against what is stored,
                        // builds the indexes once afterwards instead of row by row (still inside the transaction).
                        var stored = 0
                        try await wait.server(allowing: bulk) {
                            for try await count in try await connection.query(
                                "SELECT count(*) FROM flyers", logger: logger
                            ).decode(Int.self) { stored = count }
                        }
                        rebuild = SpatiaLiteFlyerStore.rebuildsIndex(expected: Double(written), stored: stored)
                        if rebuild { try await Self.dropIndexes(connection, logger: logger) }
                        try await wait.server(allowing: bulk) {
                            try await connection.query(
                                PostgresQuery(
                                    unsafeSQL:
                                        "INSERT INTO flyers (\(list)) SELECT \(list) FROM flyers_import\(conflict)"),
                                logger: logger)
                        }
                    }
                    if rebuild {
                        for index in PostGISSchema.bulkIndexes {
                            try await wait.server(allowing: bulk) {
                                try await connection.query(PostgresQuery(unsafeSQL: index.create), logger: logger)
                            }
                        }
                    }
                    // Given up meanwhile: roll back rather than commit what was reported as not written.
                    try Task.checkCancellation()
                }
            }
        } catch {
            if let failure { throw failure }
            throw PostGISErrors.describe(error, location: store.location)
        }
        return (written, rebuild)
    }

    /// Drops the secondary indexes a bulk write builds again: the spatial and category ones in its transaction, the
    /// words' text index after it (`PostGISWordsIndex`).
    private static func dropIndexes(_ connection: PostgresConnection, logger: Logger) async throws {
        for index in PostGISSchema.bulkIndexes {
            try await connection.query(PostgresQuery(unsafeSQL: "DROP INDEX \(index.name)"), logger: logger)
        }
        try await connection.query(
            PostgresQuery(unsafeSQL: "DROP INDEX IF EXISTS \(PostGISSchema.wordsIndex)"), logger: logger)
    }
}
