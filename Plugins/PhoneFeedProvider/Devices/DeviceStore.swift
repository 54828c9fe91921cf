import Foundation
import GRDB
import MeridianStore

/// A registered phone: its name (also its id and the OwnTracks user), the app it uses and its key's hash.
package struct PhoneDevice: Sendable, Equatable {
    package var id: String
    package var feedProtocol: FeedProtocol
    package var createdAt: Date
    var keyHash: [UInt8]
}

/// A device name that cannot be used, or a device that does not exist.
package struct DeviceError: Error, Equatable, CustomStringConvertible {
    package enum Kind: Sendable { case invalidName, exists, notFound }
    package var kind: Kind
    package var message: String
    package var description: String { message }
}

/// The `phone_devices` table (migrated under plugin name "phone"): devices and the SHA-256 of their keys.
package struct DeviceStore: Sendable {
    let store: Store

    /// Opens the table in `store`, creating or updating it.
    package init(store: Store) throws(StoreError) {
        self.store = store
        try store.migrate(Self.schema)
    }

    /// The device table's migrations, oldest first (`Store.migrate` applies them).
    package static var schema: PluginSchema {
        PluginSchema(plugin: "phone") { migrations in
            migrations.register("v1-devices") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE phone_devices (
                            id TEXT PRIMARY KEY,
                            protocol TEXT NOT NULL,
                            key_hash BLOB NOT NULL,
                            created_at REAL NOT NULL
                        ) WITHOUT ROWID
                        """)
            }
        }
    }

    /// Checks a device name: 1 to 64 characters, no control characters, no `/` (it is part of `phones/<device>`).
    package static func validate(name: String) throws(DeviceError) {
        let invalid =
            name.isEmpty || name.count > 64 || name != name.trimmingCharacters(in: .whitespaces)
            || name.contains("/") || name.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) }
        guard !invalid else {
            throw DeviceError(
                kind: .invalidName,
                message:
                    "device name '\(name.debugDescription.dropFirst().dropLast())' is not usable; give 1 to 64 characters without '/', control characters or surrounding spaces"
            )
        }
    }

    /// Registers `name` and returns its new key (shown once; only its hash is kept).
    package func add(name: String, protocol feedProtocol: FeedProtocol, now: Date = Date()) throws -> String {
        try Self.validate(name: name)
        let key = DeviceKey.generate()
        let added = try store.database.write { db -> Bool in
            guard try Int.fetchOne(db, sql: "SELECT 1 FROM phone_devices WHERE id = ?", arguments: [name]) == nil else {
                return false
            }
            try db.execute(
                sql: "INSERT INTO phone_devices (id, protocol, key_hash, created_at) VALUES (?, ?, ?, ?)",
                arguments: [name, feedProtocol.rawValue, Data(DeviceKey.hash(key)), now.timeIntervalSince1970])
            return true
        }
        guard added else {
            throw DeviceError(
                kind: .exists,
                message:
                    "a device named '\(name)' already exists; choose another name, or rotate its key (meridian devices rotate '\(name)')"
            )
        }
        return key
    }

    /// Every device, by name.
    package func list() throws -> [PhoneDevice] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, protocol, key_hash, created_at FROM phone_devices ORDER BY id").map {
                row in
                PhoneDevice(
                    id: row["id"], feedProtocol: FeedProtocol(rawValue: row["protocol"]) ?? .owntracks,
                    createdAt: Date(timeIntervalSince1970: row["created_at"]), keyHash: Array(row["key_hash"] as Data))
            }
        }
    }

    /// Deletes device `name`: its key stops working at once.
    package func remove(name: String) throws {
        let removed = try store.database.write { db in
            try db.execute(sql: "DELETE FROM phone_devices WHERE id = ?", arguments: [name])
            return db.changesCount > 0
        }
        guard removed else { throw Self.notFound(name) }
    }

    /// Gives device `name` a new key (returned) and revokes the old one.
    package func rotate(name: String) throws -> String {
        let key = DeviceKey.generate()
        let rotated = try store.database.write { db in
            try db.execute(
                sql: "UPDATE phone_devices SET key_hash = ? WHERE id = ?", arguments: [Data(DeviceKey.hash(key)), name])
            return db.changesCount > 0
        }
        guard rotated else { throw Self.notFound(name) }
        return key
    }

    /// The device whose key is `key`; every device's hash is compared in constant time.
    package func device(forKey key: String) throws -> PhoneDevice? {
        let hash = DeviceKey.hash(key)
        var found: PhoneDevice?
        for device in try list() where DeviceKey.matches(device.keyHash, hash) { found = device }
        return found
    }

    static func notFound(_ name: String) -> DeviceError {
        DeviceError(
            kind: .notFound,
            message: "there is no device named '\(name)'; see the registered ones with meridian devices list")
    }
}
