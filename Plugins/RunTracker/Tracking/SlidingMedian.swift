/// The median of the last `window` values, kept up to date as values come and go (the tracker reads it for every
/// fix, so it is never sorted from scratch).
struct SlidingMedian: Sendable, Equatable {
    /// How many of the latest values count.
    let window: Int
    /// The values that count, oldest first.
    private(set) var recent: [Double] = []
    /// The same values in ascending order.
    private var ascending: [Double] = []

    /// A window of `window` values holding the last of `values` (oldest first).
    init(window: Int, values: [Double] = []) {
        self.window = window
        for value in values { add(value) }
    }

    var count: Int { recent.count }

    /// The middle value; for an even count the mean of the two middle ones. `nil` when empty.
    var median: Double? {
        guard !ascending.isEmpty else { return nil }
        let middle = ascending.count / 2
        return ascending.count % 2 == 1 ? ascending[middle] : (ascending[middle - 1] + ascending[middle]) / 2
    }

    /// The value at position `count / 2` in ascending order (the upper middle for an even count). `nil` when empty.
    var upperMiddle: Double? { ascending.isEmpty ? nil : ascending[ascending.count / 2] }

    /// Adds `value`, dropping the oldest when the window is full.
    mutating func add(_ value: Double) {
        recent.append(value)
        ascending.insert(value, at: ascending.firstIndex { $0 > value } ?? ascending.endIndex)
        if recent.count > window {
            let oldest = recent.removeFirst()
            if let index = ascending.firstIndex(of: oldest) { ascending.remove(at: index) }
        }
    }
}
