import Foundation
import Logging
import MeridianStore
import MeridianTesting
import Testing

@testable import FlyerProximity

/// The two flyer stores, for the one conformance suite: every test taking a `FlyerBackend`
/// runs on a real SpatiaLite file and on a real PostgreSQL 15 with PostGIS 3 (one server for
/// the whole run, a new database per test).
enum FlyerBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case spatialite, postgis

    var testDescription: String { rawValue }

    /// A new, empty database of this backend.
    func makeDatabase() throws -> FlyerDatabase {
        switch self {
        case .spatialite:
            return .spatialite(try TemporaryStore())
        case .postgis:
            let server = try TestPostgres.shared()
            return .postgis(url: server.url(try server.createDatabase()))
        }
    }

    /// Runs `body` with a new, empty store of this backend, closing and removing it afterwards.
    func withStore<T>(_ body: (any FlyerStore) async throws -> T) async throws -> T {
        let database = try makeDatabase()
        defer { database.remove() }
        let store = try await database.openStore()
        defer { Task { await store.close() } }
        return try await body(store)
    }

    /// Runs `body` with a catalogue over a new, empty store of this backend, its cache loaded.
    func withCatalog<T>(_ body: (FlyerCatalog) async throws -> T) async throws -> T {
        try await withStore { store in
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            return try await body(catalog)
        }
    }
}

/// A database created for a test.
enum FlyerDatabase: Sendable {
    case spatialite(TemporaryStore)
    case postgis(url: String)

    /// The flyers consumer's options that point at this database (none for the SpatiaLite store).
    var consumerOptions: String {
        switch self {
        case .spatialite: return ""
        case .postgis(let url): return "database: '\(url)'"
        }
    }

    /// The SpatiaLite store to give a server (a fresh one for PostGIS, which keeps only other plugins' data there).
    var hostStore: TemporaryStore? {
        if case .spatialite(let store) = self { return store }
        return nil
    }

    /// What `--db` takes for this database.
    var commandLine: String {
        switch self {
        case .spatialite(let store): return store.store.path
        case .postgis(let url): return url
        }
    }

    func openStore() async throws -> any FlyerStore {
        switch self {
        case .spatialite(let temporary): return try SpatiaLiteFlyerStore(store: temporary.store)
        case .postgis(let url): return try await PostGISFlyerStore.open(url: url, logger: Logger(label: "test"))
        }
    }

    func remove() {
        if case .spatialite(let store) = self { store.remove() }
    }
}
