/// A box as an SQLite R*Tree stores it: 32-bit floats, rounded outwards so that the stored box
/// always contains the exact one.
struct RTreeBox: Equatable {
    var minX: Float
    var maxX: Float
    var minY: Float
    var maxY: Float

    /// The smallest float box that contains the given double box.
    init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
        self.minX = Self.down(minX)
        self.maxX = Self.up(maxX)
        self.minY = Self.down(minY)
        self.maxY = Self.up(maxY)
    }

    init(minX: Float, maxX: Float, minY: Float, maxY: Float) {
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    /// The box covering both.
    func union(_ other: RTreeBox) -> RTreeBox {
        RTreeBox(
            minX: min(minX, other.minX), maxX: max(maxX, other.maxX), minY: min(minY, other.minY),
            maxY: max(maxY, other.maxY))
    }

    /// Twice the centre, enough to order boxes along an axis.
    var doubledCenterX: Float { minX + maxX }
    var doubledCenterY: Float { minY + maxY }

    private static func down(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) > value ? rounded.nextDown : rounded
    }

    private static func up(_ value: Double) -> Float {
        let rounded = Float(value)
        return Double(rounded) < value ? rounded.nextUp : rounded
    }
}

/// One cell of an R*Tree node: a row id and its box in a leaf, a child node number and the box
/// around the child's cells above the leaves.
struct RTreeCell {
    var id: Int64
    var box: RTreeBox
}

/// An R*Tree built bottom-up in one pass with Sort-Tile-Recursive packing (Leutenegger et al.,
/// 1997): the cells of a level are cut into vertical slices by x, each slice into nodes by y,
/// and the nodes' boxes become the cells of the level above, until one node (the root) is left.
///
/// Every node but the root holds ⌊n/k⌋ or ⌈n/k⌉ of its level's n cells spread over k nodes, so
/// nodes are as full as the capacity allows and never less than half full. Node numbers follow
/// SQLite's R*Tree: the root is node 1, the others are numbered from 2 upwards.
struct PackedRTree {
    struct Node {
        var number: Int64
        var cells: [RTreeCell]

        /// The box around every cell (the node is never empty when this is asked).
        var bounds: RTreeBox {
            cells.dropFirst().reduce(cells[0].box) { $0.union($1.box) }
        }
    }

    /// `levels[0]` holds the leaves, the last level holds only the root.
    let levels: [[Node]]

    /// The root's height above the leaves, which SQLite stores as the tree's depth.
    var depth: Int { levels.count - 1 }

    /// Packs `entries` (row ids and boxes) into nodes of at most `capacity` cells.
    init(entries: [RTreeCell], capacity: Int) {
        precondition(capacity >= 2, "an R*Tree node holds at least two cells")
        var levels: [[Node]] = []
        var cells = entries
        var nextNumber: Int64 = 2
        while true {
            let groups = Self.tiles(&cells, capacity: capacity)
            if groups.count == 1 {
                levels.append([Node(number: 1, cells: groups[0])])
                break
            }
            let nodes = groups.map { group in
                defer { nextNumber += 1 }
                return Node(number: nextNumber, cells: group)
            }
            levels.append(nodes)
            cells = nodes.map { RTreeCell(id: $0.number, box: $0.bounds) }
        }
        self.levels = levels
    }

    /// Cuts `cells` into nodes of at most `capacity`, grouped by slice of x and then by y; one
    /// (possibly empty) group when everything fits in one node.
    private static func tiles(_ cells: inout [RTreeCell], capacity: Int) -> [[RTreeCell]] {
        guard cells.count > capacity else { return [cells] }
        let nodeCount = (cells.count + capacity - 1) / capacity
        let sliceCount = Int(Double(nodeCount).squareRoot().rounded(.up))
        cells.sort { $0.box.doubledCenterX < $1.box.doubledCenterX }
        var groups: [[RTreeCell]] = []
        groups.reserveCapacity(nodeCount)
        var node = 0
        var start = 0
        for slice in 0..<sliceCount {
            let nodesInSlice = share(of: nodeCount, part: slice, parts: sliceCount)
            let nodeSizes = (node..<node + nodesInSlice).map { share(of: cells.count, part: $0, parts: nodeCount) }
            let end = start + nodeSizes.reduce(0, +)
            cells[start..<end].sort { $0.box.doubledCenterY < $1.box.doubledCenterY }
            var offset = start
            for size in nodeSizes {
                groups.append(Array(cells[offset..<offset + size]))
                offset += size
            }
            node += nodesInSlice
            start = end
        }
        return groups
    }

    /// The size of part `part` when `total` is split into `parts` parts as evenly as possible.
    private static func share(of total: Int, part: Int, parts: Int) -> Int {
        total / parts + (part < total % parts ? 1 : 0)
    }
}
