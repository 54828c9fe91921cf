import Foundation
import GRDB

/// The write-ahead log (`<file>-wal`) beside a store in WAL mode.
enum WriteAheadLog {
    /// Cuts the log back to its last committed frame, giving back the space a refused transaction took (SQLite
    /// rolls it back but keeps the log's length, reusing it only for later writes). Takes the write lock for the
    /// cut, so no writer is appending; readers read committed frames only.
    ///
    /// The last committed frame is `mxFrame` of the wal-index header at the start of `<file>-shm`, and the page size
    /// is beside it (https://sqlite.org/walformat.html): the log holds a 32-byte header, then frames of 24 bytes
    /// plus one page each.
    static func dropUncommittedTail(_ db: Database, path: String) throws {
        try db.execute(sql: "BEGIN IMMEDIATE")
        defer { try? db.execute(sql: "ROLLBACK") }
        guard
            let header = FileHandle(forReadingAtPath: path + "-shm").flatMap({ handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 20)
            }), header.count == 20
        else { return }
        let rawPageSize = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 14, as: UInt16.self) }
        let lastFrame = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self) }
        let pageSize = rawPageSize == 1 ? 65536 : Int(rawPageSize)
        guard pageSize >= 512 else { return }
        let committed = 32 + Int(lastFrame) * (24 + pageSize)
        let log = path + "-wal"
        guard let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? nil,
            size > committed
        else { return }
        _ = truncate(log, off_t(committed))
    }
}
