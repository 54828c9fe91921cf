import Foundation
import GRDB

/// What `meridian store check` found in a database file.
public struct StoreCheckReport: Sendable, Encodable, Equatable {
    /// One check and what it found (`["ok"]` when nothing).
    public struct Check: Sendable, Encodable, Equatable {
        /// `integrity_check`, `rtreecheck` or `CheckSpatialIndex`.
        public var name: String
        /// The R*Tree or spatial column checked, for the per-object checks.
        public var subject: String?
        public var problems: [String]

        public var isOK: Bool { problems.isEmpty }

        /// The check, its subject and its problems on one line (for messages).
        public var summary: String {
            "\(name)\(subject.map { " \($0)" } ?? ""): " + problems.joined(separator: "; ")
        }
    }

    public var path: String
    public var checks: [Check]
    /// The tables whose rows or indexes are damaged, each with the damaged index or R*Tree when known.
    public var damaged: [String]

    public var isHealthy: Bool { checks.allSatisfy(\.isOK) }

    enum CodingKeys: String, CodingKey { case path, healthy, checks, damaged }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(isHealthy, forKey: .healthy)
        try container.encode(checks, forKey: .checks)
        try container.encode(damaged, forKey: .damaged)
    }
}

/// Checks a database file thoroughly without changing it: `PRAGMA integrity_check` (pages, records and that
/// every index matches its table), `rtreecheck` of every R*Tree, and with `full` SpatiaLite's `CheckSpatialIndex`
/// of every spatial column (its R*Tree against the geometries; reads every geometry).
public enum StoreCheck {
    /// The most problems listed per check.
    static let problemLimit = 20

    public static func run(path: String, full: Bool) throws(StoreError) -> StoreCheckReport {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotOpen(
                path: path, detail: "there is no such file; give the database with --db, MERIDIAN_DB or store.path")
        }
        var configuration = Store.configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            let failure = Store.classify(error, path: path)
            guard case .damaged(_, let detail) = failure else { throw failure }
            // Not even readable as a database: its header (the first page) is damaged.
            return StoreCheckReport(
                path: path, checks: [Check(name: "open", subject: nil, problems: [detail])],
                damaged: ["the file's header"])
        }
        return queue.inDatabase { db in
            let checks = checks(db, full: full)
            return StoreCheckReport(path: path, checks: checks, damaged: damagedTables(db, checks))
        }
    }

    /// `integrity_check` and `rtreecheck` of every R*Tree; with `full` also `CheckSpatialIndex` of every spatial column.
    static func checks(_ db: Database, full: Bool) -> [Check] {
        var checks = [
            Check(
                name: "integrity_check", subject: nil,
                problems: problems(db, "PRAGMA integrity_check(\(problemLimit))"))
        ]
        let rtrees =
            (try? String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING rtree%' ORDER BY name
                    """)) ?? []
        for rtree in rtrees {
            checks.append(
                Check(
                    name: "rtreecheck", subject: rtree,
                    problems: problems(db, "SELECT rtreecheck(?)", [rtree])))
        }
        if full {
            // CheckSpatialIndex records each check as a row of spatialite_history; on this read-only connection that
            // INSERT fails and SpatiaLite prints "SQL error: attempt to write a readonly database" to stderr. A
            // temporary table of the same name (temporary names are found first) takes the row, so the check
            // changes nothing and says nothing; it goes with the connection.
            try? db.execute(
                sql: """
                    CREATE TEMP TABLE IF NOT EXISTS spatialite_history (
                        event_id INTEGER PRIMARY KEY AUTOINCREMENT, table_name TEXT, geometry_column TEXT, event TEXT,
                        timestamp TEXT, ver_sqlite TEXT, ver_splite TEXT)
                    """)
            for (table, column) in spatialColumns(db) {
                let valid = Result {
                    try Int.fetchOne(db, sql: "SELECT CheckSpatialIndex(?, ?)", arguments: [table, column])
                }
                let found: [String]
                switch valid {
                case .success(1): found = []
                case .success: found = ["the spatial index of \(table).\(column) does not match its geometries"]
                case .failure(let error): found = [message(error)]
                }
                checks.append(Check(name: "CheckSpatialIndex", subject: "\(table).\(column)", problems: found))
            }
        }
        return checks
    }

    /// The rows a check query returns, without the single `ok`; a query that fails is one problem.
    private static func problems(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) -> [String] {
        do {
            let rows = try String.fetchAll(db, sql: sql, arguments: arguments)
                .flatMap { $0.split(separator: "\n").map(String.init) }
            return rows == ["ok"] || rows.isEmpty ? [] : Array(rows.prefix(problemLimit))
        } catch {
            return [message(error)]
        }
    }

    private static func message(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }

    private static func spatialColumns(_ db: Database) -> [(String, String)] {
        let rows =
            (try? Row.fetchAll(
                db,
                sql: """
                    SELECT f_table_name, f_geometry_column FROM geometry_columns WHERE spatial_index_enabled = 1
                    ORDER BY f_table_name, f_geometry_column
                    """)) ?? []
        return rows.map { ($0[0], $0[1]) }
    }

    /// "table (index or R*Tree)" for every object the problems name: indexes by name, pages through `dbstat`.
    private static func damagedTables(_ db: Database, _ checks: [Check]) -> [String] {
        var damaged: [String] = []
        func add(_ object: String) {
            let table =
                (try? String.fetchOne(db, sql: "SELECT tbl_name FROM sqlite_master WHERE name = ?", arguments: [object]))
                ?? nil
            let spatial = spatialColumns(db).first { "idx_\($0.0)_\($0.1)" == object }
            let entry: String
            if let spatial {
                entry = "\(spatial.0) (spatial index \(object) of \(spatial.0).\(spatial.1))"
            } else if let table, table != object {
                entry = "\(table) (index \(object))"
            } else {
                entry = table ?? object
            }
            if !damaged.contains(entry) { damaged.append(entry) }
        }
        for check in checks where !check.isOK {
            if let subject = check.subject {
                add(
                    check.name == "CheckSpatialIndex"
                        ? "idx_" + subject.replacingOccurrences(of: ".", with: "_") : subject)
                continue
            }
            for problem in check.problems {
                if let index = word(after: "index ", in: problem) {
                    add(index)
                } else if let page = word(after: "page ", in: problem).flatMap(Int.init),
                    let object =
                        (try? String.fetchOne(db, sql: "SELECT name FROM dbstat WHERE pageno = ?", arguments: [page]))
                        ?? nil
                {
                    add(object)
                } else if !damaged.contains("the file's structure") {
                    damaged.append("the file's structure")
                }
            }
        }
        return damaged
    }

    /// The word following `marker` in `text` (letters, digits and `_`).
    private static func word(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let word = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return word.isEmpty ? nil : String(word)
    }

    typealias Check = StoreCheckReport.Check
}
