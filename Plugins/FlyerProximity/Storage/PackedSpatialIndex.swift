import GRDB
import GRDBSQLite

/// Rebuilds SpatiaLite's spatial index of a geometry column (the R*Tree virtual table
/// `idx_<table>_<column>`) in one pass, for bulk writes.
///
/// SQLite's R*Tree inserts one row at a time, reading and rewriting the path from the root
/// and splitting nodes as it goes; for a million rows that is most of an import. Here the
/// tree is packed with `PackedRTree` from every row's bounding box and written straight into
/// the three tables SQLite keeps it in (`_node`: node number and blob; `_rowid`: row to leaf;
/// `_parent`: node to parent), in the layout SQLite documents for them: a node blob is a 16-bit
/// depth (root only), a 16-bit cell count, then per cell a 64-bit id and the box as four 32-bit
/// floats (min x, max x, min y, max y), all big-endian, zero-padded to the node size.
/// SQLite's `rtreecheck()` accepts the result and queries read it like any other R*Tree.
enum PackedSpatialIndex {
    /// Bytes per cell of a two-dimensional R*Tree: the id and four coordinates.
    private static let bytesPerCell = 24

    /// Replaces the spatial index of `table`.`column` by a packed one over every row's bounding box.
    /// Run it inside the write transaction, with SpatiaLite's triggers on `table` set aside.
    static func rebuild(_ db: Database, table: String, column: String) throws {
        let index = "idx_\(table)_\(column)"
        guard
            let definition = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [index])
        else {
            throw DatabaseError(
                message: "the spatial index \(index) is missing; run SELECT CreateSpatialIndex('\(table)', '\(column)')"
            )
        }
        // A fresh virtual table: empty shadow tables and an R*Tree object with nothing cached.
        try db.execute(sql: "DROP TABLE \(index.quotedDatabaseIdentifier)")
        try db.execute(sql: definition)
        let nodes = (index + "_node").quotedDatabaseIdentifier
        guard let nodeSize = try Int.fetchOne(db, sql: "SELECT length(data) FROM \(nodes) WHERE nodeno = 1"),
            (nodeSize - 4) / bytesPerCell >= 2
        else { throw DatabaseError(message: "the new spatial index \(index) has no usable root node") }

        let tree = PackedRTree(
            entries: try boxes(db, table: table, column: column), capacity: (nodeSize - 4) / bytesPerCell)
        var nodeRows: [(Int64, [UInt8])] = []
        var parentRows: [(Int64, Int64)] = []
        for (height, level) in tree.levels.enumerated() {
            for node in level {
                nodeRows.append((node.number, blob(node, depth: node.number == 1 ? tree.depth : 0, size: nodeSize)))
                if height > 0 {
                    parentRows += node.cells.map { ($0.id, node.number) }
                }
            }
        }
        var leafRows = tree.levels[0].flatMap { node in node.cells.map { ($0.id, node.number) } }
        leafRows.sort { $0.0 < $1.0 }

        let insertNode = try RawStatement(db, sql: "INSERT OR REPLACE INTO \(nodes) (nodeno, data) VALUES (?, ?)")
        for (number, data) in nodeRows { try insertNode.run(number, data) }
        let insertParent = try RawStatement(
            db, sql: "INSERT INTO \((index + "_parent").quotedDatabaseIdentifier) (nodeno, parentnode) VALUES (?, ?)")
        for (node, parent) in parentRows.sorted(by: { $0.0 < $1.0 }) { try insertParent.run(node, parent) }
        let insertRowid = try RawStatement(
            db, sql: "INSERT INTO \((index + "_rowid").quotedDatabaseIdentifier) (rowid, nodeno) VALUES (?, ?)")
        for (row, leaf) in leafRows { try insertRowid.run(row, leaf) }
    }

    /// Every row's id and bounding box (SpatiaLite keeps the box in the geometry's header).
    private static func boxes(_ db: Database, table: String, column: String) throws -> [RTreeCell] {
        let geometry = column.quotedDatabaseIdentifier
        let statement = try db.makeStatement(
            sql: """
                SELECT ROWID, MbrMinX(\(geometry)), MbrMaxX(\(geometry)), MbrMinY(\(geometry)), MbrMaxY(\(geometry))
                FROM \(table.quotedDatabaseIdentifier) WHERE \(geometry) IS NOT NULL
                """)
        let handle = statement.sqliteStatement
        var cells: [RTreeCell] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw RawStatement.error(db.sqliteConnection, sql: statement.sql) }
            cells.append(
                RTreeCell(
                    id: sqlite3_column_int64(handle, 0),
                    box: RTreeBox(
                        minX: sqlite3_column_double(handle, 1), maxX: sqlite3_column_double(handle, 2),
                        minY: sqlite3_column_double(handle, 3), maxY: sqlite3_column_double(handle, 4))))
        }
        sqlite3_reset(handle)
        return cells
    }

    /// The node as SQLite stores it.
    static func blob(_ node: PackedRTree.Node, depth: Int, size: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        write(UInt16(depth), at: 0, into: &bytes)
        write(UInt16(node.cells.count), at: 2, into: &bytes)
        var offset = 4
        for cell in node.cells {
            write(UInt64(bitPattern: cell.id), at: offset, into: &bytes)
            write(cell.box.minX.bitPattern, at: offset + 8, into: &bytes)
            write(cell.box.maxX.bitPattern, at: offset + 12, into: &bytes)
            write(cell.box.minY.bitPattern, at: offset + 16, into: &bytes)
            write(cell.box.maxY.bitPattern, at: offset + 20, into: &bytes)
            offset += bytesPerCell
        }
        return bytes
    }

    private static func write<Value: FixedWidthInteger>(_ value: Value, at offset: Int, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { source in
            for (index, byte) in source.enumerated() { bytes[offset + index] = byte }
        }
    }
}
