import Foundation
import GRDB
import MeridianCore
import MeridianStore

/// The stored privacy zones (table `privacy_zones`): those added with `meridian privacy add` and those of the
/// configuration, each with the secret drawn when it was stored.
package enum PrivacyBook {
    /// Every stored zone, by name.
    package static func zones(_ db: Database) throws -> [PrivacyZone] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT name, lat, lon, radius_m, source, offset_north_m, offset_east_m, jitter_m
                FROM privacy_zones ORDER BY name
                """
        ).map { row in
            let name: String = row[0]
            guard let centre = try? Coordinate(latitude: row[1], longitude: row[2]),
                let source = PrivacyZone.Source(rawValue: row[4])
            else {
                throw PrivacyError.unreadable(name: name)
            }
            return PrivacyZone(
                name: name, centre: centre, radius: row[3], source: source,
                secret: ZoneSecret(offsetNorth: row[5], offsetEast: row[6], jitter: row[7]))
        }
    }

    /// Stores a new zone with a newly drawn secret; a name already taken is refused.
    @discardableResult
    package static func add(
        name: String, centre: Coordinate, radius: Double, source: PrivacyZone.Source = .command, in db: Database
    ) throws -> PrivacyZone {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100, !name.contains(where: \.isNewline) else {
            throw PrivacyError.invalidName(name)
        }
        guard radius.isFinite, PrivacyZone.radii.contains(radius) else {
            throw PrivacyError.invalidRadius(radius)
        }
        if let existing = try zones(db).first(where: { $0.name == name }) {
            throw PrivacyError.exists(name: name, source: existing.source)
        }
        let zone = PrivacyZone(
            name: name, centre: centre, radius: radius, source: source, secret: ZoneSecret.draw(radius: radius))
        try db.execute(
            sql: """
                INSERT INTO privacy_zones (name, lat, lon, radius_m, source, offset_north_m, offset_east_m, jitter_m, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                name, centre.latitude, centre.longitude, radius, source.rawValue, zone.secret.offsetNorth,
                zone.secret.offsetEast, zone.secret.jitter, Date().timeIntervalSince1970
            ])
        return zone
    }

    /// Removes the zone added as `name` (a configured zone is removed from the configuration instead).
    package static func remove(name: String, in db: Database) throws {
        guard let zone = try zones(db).first(where: { $0.name == name }) else {
            throw PrivacyError.notFound(name: name)
        }
        guard zone.source == .command else { throw PrivacyError.configured(name: name) }
        try db.execute(sql: "DELETE FROM privacy_zones WHERE name = ?", arguments: [name])
    }

    /// Makes the stored configured zones those of the configuration: a new or changed zone is stored with a new
    /// secret (an unchanged one keeps its own), a zone no longer configured is removed. A configured name that a
    /// zone added with `meridian privacy add` already has is refused.
    package static func synchronise(_ configured: [ConfiguredZone], in db: Database) throws {
        let pending = try changes(to: configured, from: zones(db))
        for name in pending.removed {
            try db.execute(sql: "DELETE FROM privacy_zones WHERE name = ?", arguments: [name])
        }
        for zone in pending.added {
            try add(name: zone.name, centre: zone.centre, radius: zone.radius, source: .configuration, in: db)
        }
    }

    /// `synchronise(_:in:)` in its own transaction of `store`, written only when the configuration changed: a start on
    /// a store that refuses writes (damage found, a check still running) goes on while the zones are as configured.
    package static func synchronise(_ configured: [ConfiguredZone], in store: Store) throws {
        let pending = try store.database.read { db in try Self.changes(to: configured, from: Self.zones(db)) }
        guard !pending.removed.isEmpty || !pending.added.isEmpty else { return }
        try store.database.write { db in try synchronise(configured, in: db) }
    }

    /// The stored configured zones to remove (changed or no longer configured) and the configured ones to add.
    private static func changes(to configured: [ConfiguredZone], from stored: [PrivacyZone]) throws
        -> (removed: [String], added: [ConfiguredZone])
    {
        var removed: [String] = []
        var added: [ConfiguredZone] = []
        for zone in configured {
            if let existing = stored.first(where: { $0.name == zone.name }) {
                guard existing.source == .configuration else {
                    throw PrivacyError.exists(name: zone.name, source: .command)
                }
                if existing.centre == zone.centre && existing.radius == zone.radius { continue }
                removed.append(zone.name)
            }
            added.append(zone)
        }
        for zone in stored where zone.source == .configuration && !configured.contains(where: { $0.name == zone.name })
        {
            removed.append(zone.name)
        }
        return (removed, added)
    }

    /// The table, created by the migration `run-privacy` `v1-privacy-zones` (`PrivacySchema`).
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE privacy_zones (
                    name TEXT PRIMARY KEY,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    radius_m REAL NOT NULL,
                    source TEXT NOT NULL CHECK (source IN ('command', 'configuration')),
                    offset_north_m REAL NOT NULL,
                    offset_east_m REAL NOT NULL,
                    jitter_m REAL NOT NULL,
                    created_at REAL NOT NULL
                ) WITHOUT ROWID
                """)
    }
}

/// What a privacy command or the configuration got wrong.
package enum PrivacyError: Error, Equatable, CustomStringConvertible {
    case invalidName(String)
    case invalidRadius(Double)
    case exists(name: String, source: PrivacyZone.Source)
    case notFound(name: String)
    case configured(name: String)
    case unreadable(name: String)

    package var description: String {
        switch self {
        case .invalidName(let name):
            return "privacy zone name '\(name)' must be 1–100 characters on one line, e.g. home"
        case .invalidRadius(let radius):
            return
                "privacy zone radius \(NumberText.trimmed(radius, decimals: 1)) m is outside \(Int(PrivacyZone.radii.lowerBound))–\(Int(PrivacyZone.radii.upperBound)) m; give e.g. 300m"
        case .exists(let name, .command):
            return
                "a privacy zone named '\(name)' was added with 'meridian privacy add'; choose another name, or remove it with 'meridian privacy remove \(name)'"
        case .exists(let name, .configuration):
            return
                "a privacy zone named '\(name)' is in the configuration (run-tracker privacy.zones); choose another name"
        case .notFound(let name):
            return "no privacy zone named '\(name)'; 'meridian privacy list' shows them"
        case .configured(let name):
            return
                "privacy zone '\(name)' comes from the configuration (run-tracker privacy.zones); remove it there"
        case .unreadable(let name):
            return "privacy zone '\(name)' is stored with an invalid centre or source; remove it and add it again"
        }
    }
}
