import Foundation

/// What a database file looked like when a service that had checked it closed it cleanly, kept beside
/// it (`<file>-verified`), so that the next start can skip the whole-file check when nothing has written
/// the file since.
///
/// The stamp holds the file's device, inode, size, and modification and status-change times. Any write
/// to the file (by SQLite, by another program, a copy over it, one byte edited) moves its status-change
/// time, which no program can set back; a copy elsewhere has another inode. A write-ahead log that is
/// not empty (left by a crash, or by a writer still at work) also means the file is not as it was.
public struct VerifiedStamp: Codable, Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64

    /// Where the stamp of `database` is kept.
    public static func path(for database: String) -> String {
        database + "-verified"
    }

    /// The stamp the file at `database` would have now; nil when it cannot be read.
    static func current(_ database: String) -> VerifiedStamp? {
        var info = stat()
        guard stat(database, &info) == 0 else { return nil }
        return VerifiedStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changedNanoseconds: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// True when `database` is exactly as its stamp recorded and has no write-ahead log waiting.
    public static func matches(_ database: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path(for: database)),
            let recorded = try? JSONDecoder().decode(VerifiedStamp.self, from: data),
            let now = current(database)
        else { return false }
        var log = stat()
        let logWaiting = stat(database + "-wal", &log) == 0 && log.st_size > 0
        return recorded == now && !logWaiting
    }

    /// Records `database` as it is now (call once it is closed); false when it could not be written.
    @discardableResult
    static func record(_ database: String) -> Bool {
        guard let now = current(database), let data = try? JSONEncoder().encode(now) else { return false }
        return (try? data.write(to: URL(fileURLWithPath: path(for: database)), options: .atomic)) != nil
    }

    /// Removes the stamp of `database` (its file was found damaged).
    static func remove(_ database: String) {
        try? FileManager.default.removeItem(atPath: path(for: database))
    }
}
