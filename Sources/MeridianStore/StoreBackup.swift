import Foundation
import GRDB

/// Copies of a live database: `meridian backup` and `meridian restore`.
///
/// A copy is made with SQLite's online backup API in one step, which is one read transaction: a consistent snapshot
/// of the last commit, taken while the service goes on writing (in WAL mode a reader never blocks a writer). It is
/// written under `<name>.partial`, made a single file (rollback journal), checked like `meridian store check`
/// does, synced, and only then renamed to its name: a copy killed at any point leaves no file under the final name.
public enum StoreBackup {
    /// The name a copy is written under until it is complete and checked.
    public static func partialPath(for destination: String) -> String {
        destination + ".partial"
    }

    /// Copies the database at `source` to `destination` (replaced once the copy is sound) and returns the check of the copy.
    @discardableResult
    public static func backup(_ source: String, to destination: String) throws(StoreError) -> StoreCheckReport {
        guard FileManager.default.fileExists(atPath: source) else {
            throw .cannotOpen(
                path: source, detail: "there is no such file; give the database with --db, MERIDIAN_DB or store.path")
        }
        let partial = partialPath(for: destination)
        let report = try copyChecked(source, to: partial)
        try place(partial, at: destination)
        return report
    }

    /// Replaces the database at `target` with a checked copy of the backup `source`. Refused while another process
    /// has `target` open. The database it replaces is kept as `<target>.before-restore` (with its write-ahead log).
    public static func restore(_ source: String, to target: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: source) else {
            throw .cannotOpen(path: source, detail: "there is no such backup file")
        }
        if let pid = openedBy(target) { throw .inUse(path: target, pid: pid) }
        let copy = partialPath(for: target)
        try copyChecked(source, to: copy)
        if let pid = openedBy(target) {
            try? FileManager.default.removeItem(atPath: copy)
            throw .inUse(path: target, pid: pid)
        }
        let kept = target + ".before-restore"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: kept + suffix) }
        // The write-ahead log moves with its file (SQLite finds it by name); the shared memory is rebuilt from it.
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: target + suffix) {
            guard rename(target + suffix, kept + suffix) == 0 else {
                throw .cannotOpen(
                    path: target, detail: "cannot move it to \(kept + suffix): \(String(cString: strerror(errno)))")
            }
        }
        try? FileManager.default.removeItem(atPath: target + "-shm")
        VerifiedStamp.remove(target)
        try place(copy, at: target)
    }

    /// The process that has the database at `path` open, if another one does: every SQLite connection in WAL mode
    /// holds a shared lock on byte 128 of `<path>-shm` (the "dead man switch" of SQLite's unix VFS) while open.
    public static func openedBy(_ path: String) -> Int32? {
        let descriptor = open(path + "-shm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return lock.l_pid
    }

    /// Copies `source` to `partial` (readable by its owner only) and checks the copy; a copy that fails is removed.
    @discardableResult
    private static func copyChecked(_ source: String, to partial: String) throws(StoreError) -> StoreCheckReport {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
        do {
            var readOnly = Store.configuration()
            readOnly.readonly = true
            let from = try DatabaseQueue(path: source, configuration: readOnly)
            let to = try DatabaseQueue(path: partial)
            chmod(partial, 0o600)
            try from.backup(to: to)
            try to.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try to.close()
            try from.close()
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw Store.classify(error, path: source)
        }
        let report = try StoreCheck.run(path: partial, full: false)
        guard report.isHealthy else {
            try? FileManager.default.removeItem(atPath: partial)
            throw .damaged(
                path: source,
                detail: "its copy failed the check: "
                    + report.checks.filter { !$0.isOK }.map(\.summary).joined(separator: "; "))
        }
        return report
    }

    /// Syncs `file` to disk and renames it to `destination`, then syncs the folder so the new name is durable.
    private static func place(_ file: String, at destination: String) throws(StoreError) {
        let descriptor = open(file, O_RDONLY)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        guard rename(file, destination) == 0 else {
            throw .cannotOpen(
                path: destination, detail: "cannot rename \(file) to it: \(String(cString: strerror(errno)))")
        }
        let folder = open(URL(fileURLWithPath: destination).deletingLastPathComponent().path, O_RDONLY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
