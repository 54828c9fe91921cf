/// How many flyers a packed index and the flyer table disagree on, the table read one flyer at a time (`visit`),
/// leaving out `changed` (the flyers written or deleted since the index was built): each other flyer the table
/// holds otherwise than the index, or that only one of them holds.
struct IndexAgreement {
    let index: PackedFlyerIndex
    let changed: Set<String>
    private var unchanged = 0
    private var same = 0

    init(_ index: PackedFlyerIndex, changed: Set<String>) {
        self.index = index
        self.changed = changed
    }

    /// Compares one flyer of the table with the index.
    mutating func visit(_ flyer: Flyer) {
        guard !changed.contains(flyer.id) else { return }
        unchanged += 1
        if let slot = index.slot(id: flyer.id), index.flyer(slot) == flyer { same += 1 }
    }

    /// The flyers the two disagree on, once every flyer of the table was visited.
    var differences: Int {
        let indexedUnchanged = index.count - changed.filter { index.slot(id: $0) != nil }.count
        return (unchanged - same) + (indexedUnchanged - same)
    }
}
