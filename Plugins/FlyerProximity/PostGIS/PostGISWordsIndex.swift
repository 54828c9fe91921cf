import Logging
import PostgresNIO
import Synchronization

/// Builds the words' GIN index (`PostGISSchema.wordsIndex`) in the background with `CREATE INDEX CONCURRENTLY`.
///
/// A bulk write drops the index in its transaction: building it there took two thirds of an import (20 s of 32 at
/// 1,000,000 flyers). It is built again after the commit, while the flyers are read and written; until it is there,
/// the database's own text searches (made only while a cache is warming) are exact but scan more rows. One instance
/// builds at a time (an advisory lock, released with its session); an index a stopped build left invalid (a crash,
/// the server going away) is dropped and built again by the next instance that starts.
final class PostGISWordsIndex: Sendable {
    private let build = Mutex<Task<Void, Never>?>(nil)

    /// Starts building the index after any build started here before; a build does nothing when the index is there
    /// and valid, or when another instance is building it.
    func ensure(_ store: PostGISFlyerStore) {
        build.withLock { task in
            let previous = task
            task = Task {
                await previous?.value
                guard !Task.isCancelled else { return }
                await Self.build(store)
            }
        }
    }

    /// Waits for the builds started here, if any.
    func wait() async {
        await build.withLock { $0 }?.value
    }

    /// Stops waiting for the build (the server finishes or drops it; an invalid index is rebuilt at a start).
    func cancel() {
        build.withLock { $0?.cancel() }
    }

    private static func build(_ store: PostGISFlyerStore) async {
        let (index, lock, logger) = (PostGISSchema.wordsIndex, PostGISSchema.wordsIndexLock, store.logger)
        do {
            try await store.client.withConnection { connection in
                var locked = false
                for try await acquired in try await connection.query(
                    "SELECT pg_try_advisory_lock(\(lock))", logger: logger
                ).decode(Bool.self) {
                    locked = acquired
                }
                guard locked else { return }
                var failure: (any Error)?
                do {
                    try await build(index, on: connection, logger: logger)
                } catch {
                    failure = error
                }
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger)
                if let failure { throw failure }
            }
        } catch  where Task.isCancelled {
            logger.debug("flyers: stopped waiting for the text index \(index)")
        } catch {
            logger.warning(
                "flyers: the text index \(index) could not be built (\(PostGISErrors.describe(error, location: store.location))); the next start builds it, and until then the database's own text searches scan more rows"
            )
        }
    }

    /// Builds `index` on `connection` (which holds the lock) unless it is there and valid.
    private static func build(_ index: String, on connection: PostgresConnection, logger: Logger) async throws {
        var valid: Bool?
        for try await isValid in try await connection.query(
            "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(\(index))", logger: logger
        ).decode(Bool.self) {
            valid = isValid
        }
        if valid == true { return }
        if valid == false {
            try await connection.query(
                PostgresQuery(unsafeSQL: "DROP INDEX CONCURRENTLY IF EXISTS \(index)"), logger: logger)
        }
        logger.info("flyers: building the text index \(index) in the background")
        try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    "CREATE INDEX CONCURRENTLY IF NOT EXISTS \(index) ON flyers USING gin (\(PostGISSchema.wordsExpression))"
            ), logger: logger)
        logger.info("flyers: text index \(index) built")
    }
}
