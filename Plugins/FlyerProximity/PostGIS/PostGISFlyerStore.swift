import Foundation
import Logging
import MeridianCore
import PostgresNIO
import Synchronization

/// Flyers in PostGIS, through a bounded pool of connections (postgres-nio's `PostgresClient`).
///
/// `init` does no I/O; `start()` runs the pool, and `prepare()` installs PostGIS when permitted and
/// applies the migrations (`PostGISSchema`). Every write is one transaction; large writes stream
/// the rows with `COPY` into a temporary table first (`PostGISImport`). Operations that cannot
/// reach the server give up after `deadline` seconds with `FlyerStoreError.unavailable`.
package final class PostGISFlyerStore: FlyerStore {
    package let location: PostgresLocation
    package var backend: String { "postgis" }
    /// The pool (for tools that run their own SQL beside the store, such as the benchmark).
    package let client: PostgresClient
    let logger: Logger
    /// Seconds an operation may wait for the server.
    let deadline: Double
    private let runner = Mutex<Task<Void, Never>?>(nil)
    /// The builds of the words' text index after bulk writes and at a service's start.
    let wordsIndex = PostGISWordsIndex()
    /// The writes streaming rows with `COPY` now, which `close` lets end before it closes the connections.
    let copies = CopyStreams()

    /// A store for `location` with at most `connections` connections (nothing is connected yet).
    package init(location: PostgresLocation, connections: Int = 8, deadline: Double = 5, logger: Logger) {
        self.location = location
        self.deadline = deadline
        self.logger = logger
        client = PostgresClient(
            configuration: location.clientConfiguration(connections: connections), backgroundLogger: logger)
    }

    /// Starts the pool in a task of its own (until `close()`).
    package func start() {
        runner.withLock { task in
            guard task == nil else { return }
            let client = self.client
            task = Task { await client.run() }
        }
    }

    /// Stops the pool, waiting at most `closeTimeout` for it (a stop must not wait for ever; its connections close with
    /// the process then). A write streaming rows is refused its next batch (it fails and rolls back) and waited for
    /// first, `closeTimeout` at most; one still streaming then (its input stalled) leaves the pool to stop once it ends.
    package func close() async {
        let task = runner.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        guard let task else { return }
        wordsIndex.cancel()
        guard await copies.end(within: Self.closeTimeout) else {
            logger.warning(
                "flyers: a write still streams rows to PostgreSQL after \(Self.closeTimeout) s; its connections close once it ends, or with the process"
            )
            let copies = self.copies
            Task {
                _ = await copies.end(within: nil)
                task.cancel()
            }
            return
        }
        task.cancel()
        do {
            try await withDeadline(Self.closeTimeout) { await task.value }
        } catch {
            logger.warning(
                "flyers: the PostgreSQL connection pool did not stop within \(Self.closeTimeout) s; stopping without it"
            )
        }
    }

    /// How long `close` waits for the pool to stop.
    static let closeTimeout = 5.0

    /// Opens the database at `url` for a command: starts the pool, installs PostGIS when permitted and migrates.
    package static func open(url: String, logger: Logger) async throws(FlyerStoreError) -> PostGISFlyerStore {
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: url)
        } catch {
            throw .unavailable(error.description)
        }
        return try await open(location, logger: logger)
    }

    /// Opens `location` for a command: starts the pool, installs PostGIS when permitted and migrates.
    package static func open(_ location: PostgresLocation, logger: Logger) async throws(FlyerStoreError)
        -> PostGISFlyerStore
    {
        let store = PostGISFlyerStore(location: location, connections: 4, logger: logger)
        store.start()
        do {
            try await store.prepare()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Signs in once on a connection of its own (so that a refused password or a missing database is
    /// reported as such, where the pool would only retry), installs PostGIS when permitted and applies
    /// the missing migrations.
    package func prepare() async throws(FlyerStoreError) {
        let (client, location, logger) = (self.client, self.location, self.logger)
        try await perform {
            let connection = try await PostgresConnection.connect(
                on: PostgresClient.defaultEventLoopGroup.next(),
                configuration: try location.connectionConfiguration(),
                id: 0, logger: logger
            ).get()
            try await connection.close()
        }
        try await perform(deadline: max(deadline, 10)) {
            try await PostGISSchema.migrate(client, location: location, logger: logger)
        }
        let filled = try await perform(deadline: 600) { try await PostGISWords.fill(client, logger: logger) }
        if filled > 0 { logger.info("flyers: gave \(filled) stored flyers their search words") }
    }

    /// Runs `body` against the pool within the deadline, with errors as `FlyerStoreError`.
    func perform<T: Sendable>(deadline: Double? = nil, _ body: @escaping @Sendable () async throws -> T)
        async throws(FlyerStoreError) -> T
    {
        do {
            return try await withDeadline(deadline ?? self.deadline, body)
        } catch {
            throw PostGISErrors.describe(error, location: location)
        }
    }

    /// Flyers of a query whose columns are `PostGISRows.selectColumns`.
    func flyers(_ query: PostgresQuery) async throws(FlyerStoreError) -> [Flyer] {
        let (client, logger) = (self.client, self.logger)
        let rows = try await perform { () async throws -> [PostgresRow] in
            var rows: [PostgresRow] = []
            for try await row in try await client.query(query, logger: logger) { rows.append(row) }
            return rows
        }
        var flyers: [Flyer] = []
        flyers.reserveCapacity(rows.count)
        for row in rows { flyers.append(try PostGISRows.flyer(row)) }
        return flyers
    }

    // MARK: FlyerStore

    package func write(_ flyers: [Flyer], mode: FlyerWriteMode) async throws(FlyerStoreError) {
        _ = try await write(from: FlyerArraySource(flyers), mode: mode, progress: nil)
    }

    package func write(
        from source: some FlyerSource, mode: FlyerWriteMode,
        progress: ((FlyerWriteProgress) -> Void)?
    ) async throws(FlyerStoreError) -> Int {
        try await PostGISImport(store: self).write(from: source, mode: mode, progress: progress)
    }

    /// Deletes `id`; `busy` when another write holds the flyer table (an import elsewhere) for half the deadline: the
    /// server gives up the delete then, where a client that stopped waiting would leave it queued to happen later.
    package func delete(id: String) async throws(FlyerStoreError) -> Bool {
        let (client, logger, lockWait) = (self.client, self.logger, deadline / 2)
        return try await perform {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.limitLockWaits(to: lockWait, logger: logger)
                var deleted = false
                for try await _ in try await connection.query(
                    "DELETE FROM flyers WHERE id = \(id) RETURNING id", logger: logger)
                { deleted = true }
                return deleted
            }
        }
    }

    package func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try await flyers("SELECT \(unescaped: PostGISRows.selectColumns) FROM flyers WHERE id = \(id)").first
    }

    package func flyers(ids: [String]) async throws(FlyerStoreError) -> [Flyer] {
        var found: [Flyer] = []
        for start in stride(from: 0, to: ids.count, by: 5000) {
            let part = Array(ids[start..<min(start + 5000, ids.count)])
            found += try await flyers(
                "SELECT \(unescaped: PostGISRows.selectColumns) FROM flyers WHERE id = ANY(\(part))")
        }
        return found
    }

    package func forEach(_ body: (Flyer) throws -> Void) async throws(FlyerStoreError) {
        // Keyset pages, so that a million flyers never sit in memory as rows at once.
        var after: String?
        while true {
            let page: [Flyer]
            if let after {
                page = try await flyers(
                    "SELECT \(unescaped: PostGISRows.selectColumns) FROM flyers WHERE id > \(after) ORDER BY id LIMIT 20000"
                )
            } else {
                page = try await flyers(
                    "SELECT \(unescaped: PostGISRows.selectColumns) FROM flyers ORDER BY id LIMIT 20000")
            }
            do {
                for flyer in page { try body(flyer) }
            } catch let error as FlyerStoreError {
                throw error
            } catch {
                throw .database("\(error)")
            }
            guard page.count == 20000, let last = page.last?.id else { return }
            after = last
        }
    }

    package func repairWords(of flyers: [Flyer]) async throws(FlyerStoreError) {
        var folder = SearchWords()
        let (client, logger) = (self.client, self.logger)
        for start in stride(from: 0, to: flyers.count, by: 5000) {
            let part = flyers[start..<min(start + 5000, flyers.count)]
            let ids = part.map(\.id)
            let words = part.map { folder.stored($0) }
            // One statement per chunk: only rows whose words differ are written (and so logged as changes).
            _ = try await perform {
                try await client.query(
                    """
                    UPDATE flyers SET words = given.words FROM unnest(\(ids)::text[], \(words)::text[]) AS given(id, words)
                    WHERE flyers.id = given.id AND flyers.words IS DISTINCT FROM given.words
                    """, logger: logger)
            }
        }
    }

    package func lastChange() async throws(FlyerStoreError) -> Int64 {
        let (client, logger) = (self.client, self.logger)
        return try await perform {
            var latest: Int64 = 0
            for try await value in try await client.query(
                "SELECT coalesce(max(seq), 0) FROM flyer_changes", logger: logger
            ).decode(Int64.self) {
                latest = value
            }
            return latest
        }
    }

    package func changes(after: Int64) async throws(FlyerStoreError) -> FlyerChanges {
        let (client, logger) = (self.client, self.logger)
        return try await perform {
            try await client.withConnection { connection in
                try await Self.changes(after: after, on: connection, logger: logger)
            }
        }
    }

    /// What changed after change `after`, read on `connection` (within its transaction's snapshot, if any).
    static func changes(after: Int64, on connection: PostgresConnection, logger: Logger) async throws -> FlyerChanges {
        var rows: [(seq: Int64, id: String?)] = []
        let query: PostgresQuery =
            "SELECT seq, flyer_id FROM flyer_changes WHERE seq > \(after) ORDER BY seq LIMIT \(FlyerChanges.limit + 1)"
        for try await (seq, id) in try await connection.query(query, logger: logger).decode((Int64, String?).self) {
            rows.append((seq, id))
        }
        var oldest: Int64?
        for try await value in try await connection.query("SELECT min(seq) FROM flyer_changes", logger: logger).decode(
            Int64?.self)
        {
            oldest = value
        }
        return FlyerChanges(after: after, rows: rows, oldestLogged: oldest)
    }
}
