/// A binary min-heap of search entries ordered by `key`, in storage it owns: a search pushes a few hundred
/// entries, and an array's copy-on-write checks, swaps and early regrowth cost more than the ordering itself.
struct MinHeap: ~Copyable {
    /// A lower bound `key` and what it bounds: a flyer slot, a grid cell or a part of one.
    struct Entry {
        var key: Double
        var reference: Int32
        var part: Int32
    }

    private var storage: UnsafeMutablePointer<Entry>
    private var capacity: Int
    private var count = 0

    /// An empty heap with room for `capacity` entries before it grows.
    init(capacity: Int = 256) {
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// Adds `entry`, moving larger parents down into the hole until its place is found.
    mutating func push(_ entry: Entry) {
        if count == capacity { grow() }
        var hole = count
        count += 1
        while hole > 0 {
            let parent = (hole &- 1) &>> 1
            let above = storage[parent]
            guard entry.key < above.key else { break }
            storage[hole] = above
            hole = parent
        }
        storage[hole] = entry
    }

    /// Removes and returns the entry with the smallest key.
    mutating func popMin() -> Entry? {
        guard count > 0 else { return nil }
        let top = storage[0]
        count -= 1
        if count > 0 { siftDown(storage[count]) }
        return top
    }

    /// Places `entry` from the root down, moving the smaller child up into the hole while it is smaller.
    private mutating func siftDown(_ entry: Entry) {
        var hole = 0
        while true {
            var child = 2 &* hole &+ 1
            guard child < count else { break }
            if child &+ 1 < count && storage[child &+ 1].key < storage[child].key { child &+= 1 }
            guard storage[child].key < entry.key else { break }
            storage[hole] = storage[child]
            hole = child
        }
        storage[hole] = entry
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        larger.initialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
