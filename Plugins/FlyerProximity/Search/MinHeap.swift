/// A binary min-heap of (key, slot) pairs, built in linear time from an array.
struct MinHeap {
    private var items: [(key: Double, slot: Int32)]

    init(_ items: [(key: Double, slot: Int32)]) {
        self.items = items
        var index = items.count / 2 - 1
        while index >= 0 {
            siftDown(index)
            index -= 1
        }
    }

    var isEmpty: Bool { items.isEmpty }

    /// The smallest key without removing it.
    var minimumKey: Double? { items.first?.key }

    mutating func popMin() -> (key: Double, slot: Int32)? {
        guard !items.isEmpty else { return nil }
        let top = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(0)
        }
        return top
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = items.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            var smallest = left
            let right = left + 1
            if right < count && items[right].key < items[left].key { smallest = right }
            guard items[smallest].key < items[parent].key else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
