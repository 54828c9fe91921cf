/// A binary min-heap of search entries ordered by `key`.
struct MinHeap {
    /// A lower bound `key` and what it bounds: a flyer slot, a grid cell or a part of one.
    struct Entry {
        var key: Double
        var reference: Int32
        var part: Int32
    }

    private var items: [Entry] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ entry: Entry) {
        items.append(entry)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].key < items[parent].key else { return }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Entry? {
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
