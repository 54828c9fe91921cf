import Foundation
import GRDB
import MeridianCore
import MeridianStore

/// Gear in tables `gear` and `run_gear` (one item per run). Distances are summed from the runs whenever asked, so
/// deleting, restoring or purging a run, or changing an item's start distance, shows at once. Every change is one
/// transaction.
package struct GearBook: Sendable {
    package let store: Store

    package init(store: Store) {
        self.store = store
    }

    /// Every item, the ones in use first (by activity, then name), retired ones last.
    package func list() async throws -> [Gear] {
        try await store.database.read { db in try Self.all(db) }
    }

    /// The item with id or name `key`.
    package func item(_ key: String) async throws -> Gear {
        try await store.database.read { db in try Self.find(db, key) }
    }

    /// Adds an item (`name` and `activity` are needed); with `default`, it becomes its activity's default.
    package func add(_ change: GearChange, now: Date = Date()) async throws -> Gear {
        guard let name = change.name else { throw GearError.invalid(field: "name", message: "give the gear a name") }
        guard let activity = change.activity else {
            throw GearError.invalid(field: "activity", message: "say which activity it is for (run, ride, …)")
        }
        let checkedName = try GearChange.checkedName(name)
        let start = try GearChange.checkedDistance(
            change.startDistance ?? 0, field: "start_distance_m", positive: false)
        let retire = try (change.retireDistance ?? nil).map { metres throws(GearError) in
            try GearChange.checkedDistance(metres, field: "retire_distance_m", positive: true)
        }
        return try await store.database.write { db in
            try Self.checkFree(db, name: checkedName, except: nil)
            try db.execute(
                sql: """
                    INSERT INTO gear (name, activity, start_distance_m, retire_distance_m, is_default, created_at)
                    VALUES (?, ?, ?, ?, 0, ?)
                    """,
                arguments: [checkedName, activity.rawValue, start, retire, now.timeIntervalSince1970])
            let id = db.lastInsertedRowID
            if change.retired == true {
                try db.execute(
                    sql: "UPDATE gear SET retired_at = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, id])
            }
            if change.isDefault == true { try Self.makeDefault(db, id: id, activity: activity) }
            return try Self.find(db, String(id))
        }
    }

    /// Changes item `key`: the fields `change` gives. Retiring an item ends its being a default.
    package func update(_ key: String, _ change: GearChange, now: Date = Date()) async throws -> Gear {
        let name = try change.name.map { name throws(GearError) in try GearChange.checkedName(name) }
        let start = try change.startDistance.map { metres throws(GearError) in
            try GearChange.checkedDistance(metres, field: "start_distance_m", positive: false)
        }
        let retire = try change.retireDistance.map { metres throws(GearError) in
            try metres.map { metres throws(GearError) in
                try GearChange.checkedDistance(metres, field: "retire_distance_m", positive: true)
            }
        }
        return try await store.database.write { db in
            var gear = try Self.find(db, key)
            if let name {
                try Self.checkFree(db, name: name, except: gear.id)
                try db.execute(sql: "UPDATE gear SET name = ? WHERE id = ?", arguments: [name, gear.id])
            }
            if let activity = change.activity, activity != gear.activity {
                try db.execute(
                    sql: "UPDATE gear SET activity = ?, is_default = 0 WHERE id = ?",
                    arguments: [activity.rawValue, gear.id])
                gear.activity = activity
            }
            if let start {
                try db.execute(sql: "UPDATE gear SET start_distance_m = ? WHERE id = ?", arguments: [start, gear.id])
            }
            if let retire {
                try db.execute(sql: "UPDATE gear SET retire_distance_m = ? WHERE id = ?", arguments: [retire, gear.id])
            }
            if let retired = change.retired {
                try db.execute(
                    sql: "UPDATE gear SET retired_at = ?, is_default = is_default AND ? WHERE id = ?",
                    arguments: [
                        retired ? gear.retiredAt?.timeIntervalSince1970 ?? now.timeIntervalSince1970 : nil,
                        !retired, gear.id
                    ])
            }
            if let isDefault = change.isDefault {
                if isDefault {
                    guard change.retired != true, try Self.find(db, String(gear.id)).retiredAt == nil else {
                        throw GearError.invalid(
                            field: "default", message: "'\(gear.name)' is retired; a retired item cannot be a default")
                    }
                    try Self.makeDefault(db, id: gear.id, activity: gear.activity)
                } else {
                    try db.execute(sql: "UPDATE gear SET is_default = 0 WHERE id = ?", arguments: [gear.id])
                }
            }
            return try Self.find(db, String(gear.id))
        }
    }

    /// Deletes item `key`; its runs keep no gear.
    package func delete(_ key: String) async throws {
        try await store.database.write { db in
            let gear = try Self.find(db, key)
            try db.execute(sql: "DELETE FROM gear WHERE id = ?", arguments: [gear.id])
        }
    }

    /// Assigns item `key` to run `runID` (replacing its gear), or takes its gear away when `key` is `nil`. Returns
    /// the run's gear now. The run must exist and not be deleted.
    package func assign(_ key: String?, runID: String) async throws -> RunGear? {
        try await store.database.write { db in
            let run = try RunHistory.liveRun(db, id: runID)
            try db.execute(sql: "DELETE FROM run_gear WHERE run_id = ?", arguments: [runID])
            if let key {
                let gear = try Self.find(db, key)
                try db.execute(
                    sql: "INSERT INTO run_gear (run_id, gear_id) VALUES (?, ?)", arguments: [runID, gear.id])
            }
            return try Self.ofRun(db, run: run)
        }
    }

    /// The gear of run `runID`, or `nil`.
    package func ofRun(_ runID: String) async throws -> RunGear? {
        try await store.database.read { db in try Self.ofRun(db, run: RunHistory.liveRun(db, id: runID)) }
    }

    // MARK: In a transaction

    /// Gives a newly saved run its activity's default item (unless it has gear already).
    static func assignDefault(runID: String, activity: Activity?, in db: Database) throws {
        guard let activity else { return }
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO run_gear (run_id, gear_id)
                SELECT ?, id FROM gear WHERE activity = ? AND is_default = 1 AND retired_at IS NULL
                """, arguments: [runID, activity.rawValue])
    }

    /// The gear of `run`: the item, its distance up to and with this run, and whether this run crossed its
    /// retirement distance. Runs before this one are the saved, not deleted runs that started earlier.
    static func ofRun(_ db: Database, run: RunSummary) throws -> RunGear? {
        guard
            let id = try Int64.fetchOne(
                db, sql: "SELECT gear_id FROM run_gear WHERE run_id = ?", arguments: [run.id])
        else { return nil }
        let gear = try find(db, String(id))
        let before =
            try Double.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(SUM(runs.distance_m), 0) FROM run_gear JOIN runs ON runs.id = run_gear.run_id
                    WHERE run_gear.gear_id = ? AND runs.id <> ? AND runs.deleted_at IS NULL AND runs.state = 'stopped'
                        AND (runs.started_at < ? OR (runs.started_at = ? AND runs.id < ?))
                    """,
                arguments: [
                    id, run.id, run.startedAt.timeIntervalSince1970, run.startedAt.timeIntervalSince1970, run.id
                ]) ?? 0
        let previous = gear.startDistanceM + before
        let after = previous + run.distance
        let passed = gear.retireDistanceM.map { previous < $0 && after >= $0 } ?? false
        return RunGear(gear: gear, distanceAfterM: after, passedRetirement: passed)
    }

    private static let selection = """
        SELECT gear.id, gear.name, gear.activity, gear.start_distance_m, gear.retire_distance_m, gear.is_default,
            gear.retired_at, gear.created_at, COALESCE(SUM(runs.distance_m), 0) AS runs_m, COUNT(runs.id) AS run_count
        FROM gear LEFT JOIN run_gear ON run_gear.gear_id = gear.id
        LEFT JOIN runs ON runs.id = run_gear.run_id AND runs.deleted_at IS NULL AND runs.state = 'stopped'
        """

    static func all(_ db: Database) throws -> [Gear] {
        try Row.fetchAll(
            db,
            sql: selection
                + " GROUP BY gear.id ORDER BY gear.retired_at IS NOT NULL, gear.activity, gear.name COLLATE NOCASE"
        ).map(gear(row:))
    }

    /// The item whose id (digits) or name is `key`.
    static func find(_ db: Database, _ key: String) throws -> Gear {
        let row =
            if let id = Int64(key) {
                try Row.fetchOne(db, sql: selection + " WHERE gear.id = ? GROUP BY gear.id", arguments: [id])
            } else {
                try Row.fetchOne(db, sql: selection + " WHERE gear.name = ? GROUP BY gear.id", arguments: [key])
            }
        guard let row else { throw GearError.notFound(key) }
        return try gear(row: row)
    }

    private static func gear(row: Row) throws -> Gear {
        let activityText: String = row["activity"]
        let activity = Activity(rawValue: activityText) ?? .other
        let start: Double = row["start_distance_m"]
        let retire: Double? = row["retire_distance_m"]
        let distance = start + (row["runs_m"] as Double)
        return Gear(
            id: row["id"], name: row["name"], activity: activity, kind: Gear.kind(activity), startDistanceM: start,
            retireDistanceM: retire, default: row["is_default"],
            retiredAt: (row["retired_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            createdAt: Date(timeIntervalSince1970: row["created_at"]), distanceM: distance,
            runCount: row["run_count"], pastRetirement: retire.map { distance >= $0 } ?? false,
            remainingM: retire.map { max(0, $0 - distance) })
    }

    private static func checkFree(_ db: Database, name: String, except id: Int64?) throws {
        let holder = try Int64.fetchOne(db, sql: "SELECT id FROM gear WHERE name = ?", arguments: [name])
        if let holder, holder != id { throw GearError.exists(name: name) }
    }

    /// Makes item `id` the default of `activity`, instead of any other.
    private static func makeDefault(_ db: Database, id: Int64, activity: Activity) throws {
        try db.execute(sql: "UPDATE gear SET is_default = 0 WHERE activity = ?", arguments: [activity.rawValue])
        try db.execute(sql: "UPDATE gear SET is_default = 1 WHERE id = ?", arguments: [id])
    }
}
