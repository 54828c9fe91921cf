import Foundation
import Logging
import PostgresNIO

/// Keeps a catalogue's cache following its store, whoever writes to it.
///
/// - SpatiaLite: the change log is polled every `interval` (a read of its latest rows).
/// - PostGIS: a connection of its own `LISTEN`s to `meridian_flyers`; each notification applies
///   the logged changes. When the connection is lost the database is marked unavailable (a warm
///   cache keeps answering, flagged stale); reconnection is tried with backoff (0.1 s doubling to
///   2 s), and after it the cache is loaded again in full while PostGIS answers.
struct FlyerChangeFeed: Sendable {
    let catalog: FlyerCatalog
    let logger: Logger
    var interval: Duration = .milliseconds(200)

    /// Follows the store until the task is cancelled (the store chooses how: `FlyerStore.followChanges`).
    func run() async {
        await catalog.store.followChanges(of: catalog, logger: logger)
    }

    /// SpatiaLite: reads the change log every `interval`.
    func poll() async {
        while !Task.isCancelled {
            do {
                try await catalog.refresh()
            } catch .busy {
                // A long write elsewhere; its changes are read once it has committed.
            } catch {
                logger.warning("flyers: cannot read the change log: \(error)")
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// PostGIS: listens for the store's notifications on a connection of its own.
    func listen(_ store: PostGISFlyerStore) async {
        store.start()
        var backoff = 0.1
        var prepared = false
        var lastProblem: String?
        while !Task.isCancelled {
            do {
                if !prepared {
                    try await store.prepare()
                    prepared = true
                    store.wordsIndex.ensure(store)
                }
                let connection: PostgresConnection
                do {
                    connection = try await PostgresConnection.connect(
                        on: PostgresClient.defaultEventLoopGroup.next(),
                        configuration: try store.location.connectionConfiguration(),
                        id: -1, logger: logger  // apart from the pool's connections (0, 1, …) in the logs
                    ).get()
                } catch {
                    throw PostGISErrors.describe(error, location: store.location)
                }
                defer { Task { try? await connection.close() } }
                let notifications = try await connection.listen(PostGISSchema.channel)
                logger.debug("flyers: listening for changes")
                // Changes made while nothing listened are unknown: PostGIS answers while the cache loads again.
                catalog.markCold()
                catalog.setAvailable(true)
                try await catalog.load()
                if lastProblem != nil {
                    logger.info("flyers: PostgreSQL at \(store.location.host):\(store.location.port) is back")
                }
                lastProblem = nil
                backoff = 0.1
                // The LISTEN sequence does not always end when the task is cancelled (a service stopped while it
                // waited for a notification hung the graceful shutdown); closing its connection ends it.
                try await withTaskCancellationHandler {
                    for try await _ in notifications {
                        try await catalog.refresh()
                    }
                } onCancel: {
                    let _: EventLoopFuture<Void> = connection.close()
                }
                if Task.isCancelled { return }
                throw FlyerStoreError.unavailable(
                    "the connection to PostgreSQL at \(store.location.host):\(store.location.port) was closed")
            } catch {
                logger.debug("flyers: the change feed stopped: \(error)")
                if Task.isCancelled { return }
                let problem = PostGISErrors.describe(error, location: store.location)
                let text: String
                if case .unavailable(let detail) = problem { text = detail } else { text = problem.description }
                catalog.setAvailable(false, problem: text)
                if text != lastProblem { logger.error("flyers: \(text); retrying") }
                lastProblem = text
            }
            try? await Task.sleep(for: .seconds(backoff))
            backoff = min(backoff * 2, 2)
        }
    }
}
