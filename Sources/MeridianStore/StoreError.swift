import Foundation
import MeridianCore

/// Why the store could not be opened or used; every message says what to do.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// `mod_spatialite` is missing or failed to load.
    case spatialiteUnavailable(detail: String)
    /// The file's check (`quick_check` or `integrity_check`) found damage; `detail` names the check and what it found.
    case damaged(path: String, detail: String)
    /// The file exists but is not an SQLite database, or cannot be opened.
    case cannotOpen(path: String, detail: String)
    /// A plugin's migration failed.
    case migrationFailed(plugin: String, detail: String)
    /// Another process held the database for longer than the busy timeout.
    case busy(path: String)
    /// The disk holding the database is full.
    case full(path: String, detail: String)
    /// The database holds migrations of `plugin` this Meridian does not know: a newer Meridian wrote it.
    /// Versions are the plugin's schema versions (its number of migrations); `writtenBy` the newer Meridian's version.
    case newerSchema(
        path: String, plugin: String, databaseVersion: Int, knownVersion: Int, unknown: [String], writtenBy: String?)
    /// Another process (`pid`) has the database open, so it cannot be replaced.
    case inUse(path: String, pid: Int32)

    /// True for `full`.
    public var isFull: Bool {
        if case .full = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .spatialiteUnavailable(let detail):
            return
                "cannot load the SpatiaLite extension (mod_spatialite): \(detail); install the Debian package libsqlite3-mod-spatialite (scripts/bootstrap installs it)"
        case .damaged(let path, let detail):
            return
                "the database \(path) is damaged (\(detail)); `meridian store check --db \(path)` says what is damaged; restore the file from a backup, or move it away and re-import your data into a new store"
        case .cannotOpen(let path, let detail):
            return
                "cannot open the database \(path): \(detail); check store.path (or MERIDIAN_DB) and the file's permissions"
        case .busy:
            return "the database is busy with another write; try again"
        case .full(let path, let detail):
            return
                "the disk holding the database \(path) is full (\(detail)); free space on it (df -h \(URL(fileURLWithPath: path).deletingLastPathComponent().path)), then try again"
        case .newerSchema(let path, let plugin, let databaseVersion, let knownVersion, let unknown, let writtenBy):
            let writer = writtenBy.map { "Meridian \($0)" } ?? "a newer Meridian"
            return """
                the database \(path) was written by \(writer): its \(plugin) tables are at schema version \(databaseVersion) \
                (\(unknown.joined(separator: ", ")) unknown here), and this Meridian \(MeridianVersion.current) knows \(plugin) schema \
                versions up to \(knownVersion); nothing was changed. Run the newer meridian, or restore a backup taken \
                before the upgrade (meridian restore BACKUP)
                """
        case .inUse(let path, let pid):
            return
                "the database \(path) is open in process \(pid) (meridian serve or another command); stop it first (systemctl stop meridian), then try again"
        case .migrationFailed(let plugin, let detail):
            return "updating the database tables of '\(plugin)' failed: \(detail); the database was left unchanged"
        }
    }
}
