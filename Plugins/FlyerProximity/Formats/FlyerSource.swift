/// Flyers read one at a time from some input (a CSV file, a parsed document), so that a large
/// import can be checked and written at the same time.
package protocol FlyerSource: Sendable {
    /// The next flyer, nil at the end; an invalid one throws, naming where it is.
    mutating func next() throws(FlyerInputError) -> Flyer?
    /// How much of the input has been read, from 0 to 1.
    var fractionRead: Double { get }
    /// True when the source itself refuses an id it has already given (naming both places),
    /// so that writers need not check again.
    var rejectsRepeatedIDs: Bool { get }
}

extension FlyerSource {
    package var rejectsRepeatedIDs: Bool { false }
}

/// Flyers already in memory, as a source.
package struct FlyerArraySource: FlyerSource {
    private let flyers: [Flyer]
    private var position = 0

    package init(_ flyers: [Flyer]) {
        self.flyers = flyers
    }

    package mutating func next() -> Flyer? {
        guard position < flyers.count else { return nil }
        defer { position += 1 }
        return flyers[position]
    }

    package var fractionRead: Double {
        flyers.isEmpty ? 1 : Double(position) / Double(flyers.count)
    }
}
