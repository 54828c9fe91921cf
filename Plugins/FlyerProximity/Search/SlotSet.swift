/// A set of slot numbers below a fixed count, one bit each.
struct SlotSet: Sendable {
    private var words: [UInt64]
    private(set) var count = 0

    init(capacity: Int) {
        words = Array(repeating: 0, count: (capacity + 63) / 64)
    }

    func contains(_ slot: Int32) -> Bool {
        words[Int(slot) >> 6] & (1 << UInt64(Int(slot) & 63)) != 0
    }

    /// The slots in the set, in ascending order.
    var members: [Int32] {
        var found: [Int32] = []
        found.reserveCapacity(count)
        for (number, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                found.append(Int32(number << 6 + rest.trailingZeroBitCount))
                rest &= rest - 1
            }
        }
        return found
    }

    mutating func insert(_ slot: Int32) {
        let bit: UInt64 = 1 << UInt64(Int(slot) & 63)
        guard words[Int(slot) >> 6] & bit == 0 else { return }
        words[Int(slot) >> 6] |= bit
        count += 1
    }
}
