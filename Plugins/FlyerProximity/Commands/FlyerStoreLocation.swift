import Foundation
import Logging
import MeridianCLI
import MeridianCore
import MeridianStore

extension StoreLocationOptions {
    /// The `flyers` consumer's options from the configuration (defaults without one).
    func flyerOptions(_ config: MeridianConfig?) throws -> FlyerOptions {
        guard let spec = config?.consumers.first(where: { $0.type == FlyerPlugin.registration.type }) else {
            return FlyerOptions()
        }
        do {
            return try FlyerOptions.decode(spec.options)
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
    }

    /// The configuration's `time_zone` (the system's without a configuration): bare dates are days there.
    func timeZone() throws -> TimeZone {
        try loadConfig()?.timeZone ?? .current
    }

    /// Runs `body` with the flyer store this command uses: `--db`, else `MERIDIAN_FLYERS_DB`, else the
    /// flyers consumer's `database` option, else the SpatiaLite store (`MERIDIAN_DB`, `store.path`).
    /// A `postgres://` URL is PostGIS; any other URL is an error. A SpatiaLite file must exist unless `creating`
    /// (the commands that add flyers): the others say there is none and where they looked.
    func withFlyerStore<T>(creating: Bool = false, _ body: (any FlyerStore) async throws -> T) async throws -> T {
        let config = try loadConfig()
        let environment = ProcessInfo.processInfo.environment["MERIDIAN_FLYERS_DB"].flatMap { $0.isEmpty ? nil : $0 }
        let configured = try flyerOptions(config).database
        let (named, source) =
            db.map { ($0, "--db") } ?? environment.map { ($0, "MERIDIAN_FLYERS_DB") }
            ?? configured.map { ($0, "consumers[flyers].database") } ?? (nil, "")
        guard let named, Store.looksLikeURL(named) else {
            let store: SpatiaLiteFlyerStore
            do {
                if let named, !creating { try Self.requireExisting(named, source: source) }
                store = try SpatiaLiteFlyerStore(
                    store: try named.map {
                        try Store.open(path: $0, busyTimeout: config?.store.busyTimeout ?? Store.defaultBusyTimeout)
                    }
                        ?? (creating ? openStore(config) : openExistingStore(config)))
            } catch let error as StoreError {
                throw CommandFailure(error.description)
            }
            let result = try await body(store)
            // A file this command created, or found as a checked service left it, is stamped again, so
            // that the service's next start need not check it whole (`VerifiedStamp`).
            store.store.close(logger: Logger(label: "meridian.store", factory: { _ in SwiftLogNoOpLogHandler() }))
            return result
        }
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: named)
        } catch {
            throw CommandFailure("\(source): \(error)", code: 2)
        }
        let store: PostGISFlyerStore
        do {
            store = try await PostGISFlyerStore.open(location, logger: Logger(label: "meridian.flyers"))
        } catch {
            throw CommandFailure("\(location): \(error)")
        }
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}
