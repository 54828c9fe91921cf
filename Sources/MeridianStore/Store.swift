import Foundation
import GRDB
import GRDBSQLite
import Logging
import MeridianCore
import Synchronization

/// The SpatiaLite database: a GRDB `DatabasePool` (WAL) with `mod_spatialite`
/// loaded on every connection. Plugins register their own migrations.
public final class Store: Sendable {
    /// Reads run concurrently, writes are serialised; use `read`/`write` on it.
    public let database: any DatabaseWriter
    /// The file path, or ":memory:".
    public let path: String
    private let foundDamage = Mutex<String?>(nil)
    private let condition: Mutex<Condition>
    /// Where the whole-file check run before a migration says what it found.
    private let logger: Logger

    /// What is known of the file beyond damage.
    private struct Condition {
        /// The file was created by this open, checked whole, or was as a checked store left it: a clean close
        /// stamps it (`VerifiedStamp`).
        var verified: Bool
        /// The whole-file check is still to run (`checkInBackground`).
        var checkPending: Bool
        /// The file was created by this open or was as a checked store left it; else (a crash, `kill -9`, or
        /// another program wrote it) writes wait for the whole-file check (`holdWritesUntilChecked`).
        var trusted: Bool
        /// Writes are refused (`PRAGMA query_only`) until that check passes.
        var writesHeld = false
        var closed = false
    }

    /// The whole-file check was left for later (`checkInBackground`) and has not run yet.
    public var wholeFileCheckDeferred: Bool { condition.withLock { $0.checkPending } }

    /// True while writes wait for the whole-file check (the file was not as a checked store left it).
    public var writesHeldUntilChecked: Bool { condition.withLock { $0.writesHeld } }

    /// Why writes are refused now (damage found, or the whole-file check still running), or nil.
    public var writeRefusal: String? {
        if let damage { return damage.description }
        return writesHeldUntilChecked
            ? "the database \(path) is being checked after an unclean stop (a crash, kill -9, or another program wrote it); writes resume when the check passes, in a few seconds"
            : nil
    }

    private init(
        database: any DatabaseWriter, path: String, verified: Bool = false, wholeFileCheckDeferred: Bool = false,
        trusted: Bool = true, logger: Logger = Logger(label: "meridian.store")
    ) {
        self.database = database
        self.path = path
        self.logger = logger
        condition = Mutex(Condition(verified: verified, checkPending: wholeFileCheckDeferred, trusted: trusted))
    }

    /// How thoroughly `open` checks the file before using it.
    public enum OpeningCheck: Sendable {
        /// `PRAGMA quick_check`: the pages and records are well formed (fast; for commands).
        case quick
        /// `PRAGMA integrity_check`, also that every index matches its table, and `rtreecheck` of every R*Tree
        /// (about 2 s per million flyers; for the service, which then runs for a long time on what it read).
        case integrity
        /// `integrity`, run by `checkInBackground` while the service answers (`wholeFileCheckDeferred`). When the
        /// file is not exactly as a checked store left it at its last clean close (`VerifiedStamp`), a plugin whose
        /// tables must be migrated has the file checked first, at once, and `holdWritesUntilChecked` refuses
        /// writes from then until the check passes.
        case integrityInBackground
    }

    /// Opens (creating if needed) the database at `path`, loads SpatiaLite,
    /// initialises spatial metadata once and checks the file with `check`.
    public static func open(
        path: String, check: OpeningCheck = .quick, busyTimeout: Double = Store.defaultBusyTimeout,
        logger: Logger = Logger(label: "meridian.store")
    ) throws(StoreError) -> Store {
        guard !looksLikeURL(path) else {
            throw .cannotOpen(path: path, detail: "this is a URL, but the store is a SpatiaLite file; give a file path")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(
                path: path, detail: "cannot create the folder \(directory.path): \(error.localizedDescription)")
        }
        // Before the pool opens: opening may write (the write-ahead log's first frames). A file SQLite creates
        // now is sound by construction, as much as one it was found as a checked store left it.
        let created = ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) == 0
        let stamped = VerifiedStamp.matches(path)
        let deferred = check == .integrityInBackground
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration(busyTimeout: busyTimeout))
        } catch {
            throw classify(error, path: path)
        }
        let store = Store(
            database: pool, path: path, verified: created || stamped || check == .integrity,
            wholeFileCheckDeferred: deferred, trusted: created || stamped, logger: logger)
        if !deferred { try store.checkIntegrity(check) }
        try store.initialiseSpatialMetadata()
        logger.debug("store opened", metadata: ["path": "\(path)"])
        return store
    }

    /// A private in-memory database (one connection), for tests and one-off tools.
    public static func inMemory() throws(StoreError) -> Store {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration(busyTimeout: defaultBusyTimeout))
        } catch {
            throw classify(error, path: ":memory:")
        }
        let store = Store(database: queue, path: ":memory:")
        try store.initialiseSpatialMetadata()
        return store
    }

    /// Applies `plugin`'s migrations that have not run yet. Identifiers are
    /// prefixed with the plugin name, so plugins cannot collide.
    public func migrate(plugin: String, _ register: (inout PluginMigrations) -> Void) throws(StoreError) {
        try migrate(PluginSchema(plugin: plugin, register))
    }

    /// Applies the migrations of `schema` that have not run yet. A database with a migration of the plugin that
    /// `schema` does not know (written by a newer Meridian) is refused (`StoreError.newerSchema`) and left unchanged.
    public func migrate(_ schema: PluginSchema) throws(StoreError) {
        let migrator = schema.migrator
        if condition.withLock({ !$0.trusted && $0.checkPending }),
            (try? database.read({ try !migrator.hasCompletedMigrations($0) })) ?? true
        {
            try checkNow()
        }
        var attempt = 1
        while true {
            do {
                try database.read { (db: Database) throws -> Void in try schema.refuseNewer(db, path: path) }
                try migrator.migrate(database)
                return
            } catch let error as StoreError {
                throw error
            } catch {
                // Another process may have applied the same migrations while this one waited for the lock (it
                // decided what to apply before): then there is nothing left to do, or, while that process is
                // still between its migrations (each is a transaction of its own), less: decide again.
                if (try? database.read({ try migrator.hasCompletedMigrations($0) })) == true { return }
                if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY { throw .busy(path: path) }
                guard attempt < Self.migrationAttempts else {
                    throw .migrationFailed(plugin: schema.plugin, detail: "\(error)")
                }
                attempt += 1
            }
        }
    }

    /// How often a plugin's migrations are decided and applied again when they fail beside another process's.
    private static let migrationAttempts = 4

    private func checkIntegrity(_ check: OpeningCheck) throws(StoreError) {
        let failed: [StoreCheck.Check]
        do {
            failed = try database.read { db in
                switch check {
                case .quick:
                    let rows = try String.fetchAll(db, sql: "PRAGMA quick_check(20)")
                    return rows == ["ok"]
                        ? []
                        : [
                            StoreCheck.Check(
                                name: "quick_check", subject: nil, problems: rows.isEmpty ? ["no answer"] : rows)
                        ]
                case .integrity, .integrityInBackground:
                    return StoreCheck.checks(db, full: false).filter { !$0.isOK }
                }
            }
        } catch {
            throw Self.classify(error, path: path)
        }
        guard failed.isEmpty else {
            throw .damaged(path: path, detail: failed.map(\.summary).joined(separator: "; "))
        }
    }

    /// What a check found damaged (nil while nothing was found): from then on every write is refused.
    public var damage: StoreError? {
        foundDamage.withLock { $0 }.map { .damaged(path: path, detail: $0) }
    }

    /// Runs `meridian store check`'s checks (`integrity_check`, `rtreecheck` of every R*Tree) on a connection
    /// of their own, off the cooperative threads, while the service answers. When they find damage, the
    /// store refuses writes from then on (`PRAGMA query_only`), `damage` says what was found, and the log
    /// says it with what to do. Returns the report.
    @discardableResult
    public func checkInBackground(logger: Logger = Logger(label: "meridian.store")) async throws(StoreError)
        -> StoreCheckReport
    {
        let started = ContinuousClock.now
        let path = self.path
        let result = await BlockingWork.onOwnThread(lowPriority: true) {
            Result { () throws(StoreError) in
                let report = try StoreCheck.run(path: path, full: false)
                if !report.isHealthy {
                    let found = report.checks.filter { !$0.isOK }.map(\.summary)
                    self.recordDamage(
                        "damaged: \(report.damaged.joined(separator: ", ")); " + found.joined(separator: "; "),
                        foundBy: "store check", logger: logger)
                }
                return report
            }
        }
        let report = try result.get()
        let seconds = (ContinuousClock.now - started) / .milliseconds(1) / 1000
        if report.isHealthy {
            let held = writesHeldUntilChecked
            passed()
            logger.info(
                "store check: \(path) is sound (integrity_check, rtreecheck; \(String(format: "%.2f", seconds)) s)\(held ? "; writes are taken again" : "")"
            )
        }
        return report
    }

    /// From now until the whole-file check passes, refuses writes (`PRAGMA query_only`; they fail read-only), when
    /// the file was not as a checked store left it and the check has not run yet. The service calls this once its
    /// plugins are set up (their start-up writes are small: configuration kept in tables).
    public func holdWritesUntilChecked() throws(StoreError) {
        guard condition.withLock({ !$0.trusted && $0.checkPending }) else { return }
        do {
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
        } catch {
            throw Self.classify(error, path: path)
        }
        condition.withLock { $0.writesHeld = true }
    }

    /// Runs the whole-file check now (a migration must write before the background check could run).
    private func checkNow() throws(StoreError) {
        try checkIntegrity(.integrity)
        passed()
        logger.info("store check: \(path) is sound (integrity_check, rtreecheck; before tables were added)")
    }

    /// The whole-file check passed: writes are taken again unless damage was found meanwhile, and a clean close
    /// stamps the file.
    private func passed() {
        try? database.writeWithoutTransaction { db in
            // Inside the writer, so that damage recorded meanwhile (`recordDamage`, also a write) keeps writes refused.
            guard foundDamage.withLock({ $0 == nil }) else { return }
            if condition.withLock({ $0.writesHeld }) { try db.execute(sql: "PRAGMA query_only = 0") }
            condition.withLock {
                $0.writesHeld = false
                $0.checkPending = false
                $0.verified = true
            }
        }
    }

    /// Records damage found in the file (by the background check, or by a read SQLite answered with "malformed"):
    /// from then on the store refuses writes (`PRAGMA query_only`), `damage` says what was found, the stamp is
    /// removed, and the log says it (critical, naming `foundBy`) with what to do. Blocks while another write runs.
    public func recordDamage(_ detail: String, foundBy: String, logger: Logger) {
        foundDamage.withLock { $0 = detail }
        VerifiedStamp.remove(path)
        try? database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
        logger.critical(
            "\(foundBy): \(damage?.description ?? path); writes are refused until the service is restarted on a sound file"
        )
    }

    /// Closes the database (every later use fails; closing again does nothing). When the file was created by this
    /// open, checked whole, or was as a checked store left it, and no check found damage since, stamps it
    /// (`VerifiedStamp`) so that the next start on it can skip the whole-file check.
    public func close(logger: Logger = Logger(label: "meridian.store", factory: { _ in SwiftLogNoOpLogHandler() })) {
        let alreadyClosed = condition.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !alreadyClosed else { return }
        var emptied = false
        do {
            // The write-ahead log is copied into the file and emptied now: the pool closes its writer first,
            // and its read-only readers, closing last, could not. Another process at work on the file means
            // no stamp rather than a wait.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA busy_timeout = 200")
                try db.checkpoint(.truncate)
            }
            emptied = true
        } catch {
            logger.info(
                "store: the write-ahead log of \(path) could not be emptied (\(error)); the next start checks the whole file"
            )
        }
        do {
            try (database as? DatabasePool)?.close()
        } catch {
            logger.warning("store: \(path) could not be closed cleanly: \(error)")
            return
        }
        guard emptied, condition.withLock({ $0.verified }), damage == nil else { return }
        if !VerifiedStamp.record(path) {
            logger.warning(
                "store: cannot write \(VerifiedStamp.path(for: path)); the next start checks the whole file again")
        }
    }

    /// Runs `write` (a large write: an import) so that, failing on a full disk, it leaves nothing behind: SQLite
    /// keeps the pages of a refused transaction at the end of the write-ahead log, taking the space until the log is
    /// emptied, which needs room to copy it into the file. That failure is thrown as `StoreError.full`.
    public func releasingSpaceOnFailure<T>(_ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch let error as DatabaseError {
            let classified = Self.classify(error, path: path)
            guard classified.isFull else { throw error }
            try? database.writeWithoutTransaction { db in try WriteAheadLog.dropUncommittedTail(db, path: path) }
            throw classified
        }
    }

    private func initialiseSpatialMetadata() throws(StoreError) {
        try migrate(Self.schema)
    }

    /// The store's own migrations (plugin name "store"), applied by `open` and `inMemory`.
    public static let schema = PluginSchema(plugin: "store") { migrations in
        migrations.register("spatial-metadata") { db in
            // (0, …) runs inside GRDB's transaction; 'WGS84' limits the reference systems to the ones we use.
            try db.execute(sql: "SELECT InitSpatialMetaData(0, 'WGS84')")
        }
        // The webhooks' outbox: a core feature every plugin's events feed, so every store has it.
        migrations.register("hooks", EventOutbox.createTables)
    }

    /// Seconds a write waits for another process's write (a long import) before giving up busy.
    public static let defaultBusyTimeout = 30.0

    /// True when `text` is written as a URL (`scheme://…`) rather than a file path.
    public static func looksLikeURL(_ text: String) -> Bool {
        guard let range = text.range(of: "://") else { return false }
        let scheme = text[..<range.lowerBound]
        return !scheme.isEmpty
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    static func configuration(busyTimeout: Double = defaultBusyTimeout) -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // Loading SpatiaLite sets the connection's busy timeout to its own 5 s: GRDB's busy mode (set before
            // this runs) is put back, so `store.busy_timeout` is what a write waits.
            let busyMilliseconds = try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0
            try loadSpatialite(db)
            try db.execute(sql: "PRAGMA busy_timeout = \(busyMilliseconds)")
            // With WAL, NORMAL survives a crash or kill -9 of the process; only a power loss can drop
            // the last commits, and it saves a disk sync per transaction.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        configuration.busyMode = .timeout(busyTimeout)
        return configuration
    }

    /// Loads `mod_spatialite` by its bare name, with extension loading enabled only for the call.
    private static func loadSpatialite(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { return }
        sqlite3_enable_load_extension(connection, 1)
        defer { sqlite3_enable_load_extension(connection, 0) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_load_extension(connection, "mod_spatialite", nil, &message)
        guard code == SQLITE_OK else {
            let detail = message.map { String(cString: $0) } ?? "error \(code)"
            sqlite3_free(message)
            throw StoreError.spatialiteUnavailable(detail: detail)
        }
    }

    static func classify(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_BUSY:
                return .busy(path: path)
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return .damaged(path: path, detail: error.message ?? "\(error)")
            case .SQLITE_FULL:
                return .full(path: path, detail: error.message ?? "\(error)")
            default:
                // A full disk also shows as a file that cannot be opened or written (no room for the -shm or -wal).
                if diskIsFull(at: path) { return .full(path: path, detail: error.message ?? "\(error)") }
                return .cannotOpen(path: path, detail: error.message ?? "\(error)")
            }
        }
        return .cannotOpen(path: path, detail: "\(error)")
    }

    /// True when the file system holding `path` (or its folder) has no block left for this process.
    static func diskIsFull(at path: String) -> Bool {
        var stats = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard statvfs(folder, &stats) == 0 else { return false }
        return stats.f_bavail == 0
    }
}
