import MeridianCore
import Testing
import Workloads

@testable import FlyerProximity

@Suite("packing an R*Tree bottom-up")
struct PackedRTreeTests {
    private func entries(_ count: Int, seed: UInt64) -> [RTreeCell] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { number in
            let x = random.unit() * 360 - 180, y = random.unit() * 180 - 90
            let width = random.unit() < 0.1 ? random.unit() * 2 : 0
            return RTreeCell(
                id: Int64(number + 1), box: RTreeBox(minX: x, maxX: x + width, minY: y, maxY: y + width / 2))
        }
    }

    private func contains(_ outer: RTreeBox, _ inner: RTreeBox) -> Bool {
        outer.minX <= inner.minX && outer.maxX >= inner.maxX && outer.minY <= inner.minY && outer.maxY >= inner.maxY
    }

    @Test(
        "every entry sits in one leaf, nodes are between half full and full, parents cover their children",
        arguments: [0, 1, 51, 52, 2_000, 30_001])
    func structure(count: Int) {
        let capacity = 51
        let input = entries(count, seed: UInt64(count))
        let tree = PackedRTree(entries: input, capacity: capacity)
        #expect(tree.levels.last?.count == 1 && tree.levels.last?[0].number == 1)
        #expect(tree.levels.dropLast().allSatisfy { level in level.allSatisfy { $0.number != 1 } })

        let leafIDs = tree.levels[0].flatMap { $0.cells.map(\.id) }.sorted()
        #expect(leafIDs == input.map(\.id))
        let numbers = tree.levels.flatMap { $0.map(\.number) }
        #expect(Set(numbers).count == numbers.count)

        var boxes: [Int64: RTreeBox] = [:]
        for level in tree.levels.dropLast() {
            for node in level {
                #expect(node.cells.count >= capacity / 2 && node.cells.count <= capacity)
                boxes[node.number] = node.bounds
            }
        }
        for level in tree.levels.dropFirst() {
            for node in level {
                for cell in node.cells {
                    #expect(boxes[cell.id] == cell.box, "a parent cell carries exactly its child's box")
                }
            }
        }
        for (height, level) in tree.levels.enumerated() where height > 0 {
            let children = Dictionary(uniqueKeysWithValues: tree.levels[height - 1].map { ($0.number, $0) })
            for node in level {
                for cell in node.cells {
                    let child = children[cell.id]
                    #expect(child != nil)
                    #expect(child?.cells.allSatisfy { contains(cell.box, $0.box) } == true)
                }
            }
        }
    }

    @Test("boxes round outwards to floats, so the stored box always contains the exact one")
    func outwardRounding() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<10_000 {
            let x = (random.unit() - 0.5) * 360, y = (random.unit() - 0.5) * 180
            let box = RTreeBox(minX: x, maxX: x, minY: y, maxY: y)
            #expect(Double(box.minX) <= x && Double(box.maxX) >= x && Double(box.minY) <= y && Double(box.maxY) >= y)
            #expect(box.maxX.nextDown <= box.minX.nextUp, "no wider than one float step each way")
        }
    }

    @Test("a node blob is SQLite's layout: depth, count, then big-endian id and float coordinates")
    func nodeLayout() {
        let node = PackedRTree.Node(
            number: 1, cells: [RTreeCell(id: 258, box: RTreeBox(minX: Float(1), maxX: 2, minY: -1, maxY: 0.5))])
        let blob = PackedSpatialIndex.blob(node, depth: 3, size: 40)
        #expect(blob.count == 40)
        #expect(Array(blob[0..<4]) == [0, 3, 0, 1])
        #expect(Array(blob[4..<12]) == [0, 0, 0, 0, 0, 0, 1, 2])
        #expect(Array(blob[12..<16]) == [0x3F, 0x80, 0, 0])
        #expect(Array(blob[16..<20]) == [0x40, 0, 0, 0])
        #expect(Array(blob[20..<24]) == [0xBF, 0x80, 0, 0])
        #expect(Array(blob[24..<28]) == [0x3F, 0, 0, 0])
        #expect(blob[28...].allSatisfy { $0 == 0 })
    }
}
