extension BestMatches {
    /// The best `keep` of a few given slots (a rare text query's candidates) within `radius`: each is given a
    /// lower bound of its distance (`bound`, nil when a filter leaves it out), and they are measured exactly
    /// (`measure`, nil for a slot no longer there) in increasing order of it until no bound can beat the last kept, as the grid walk does.
    static func among(
        _ slots: [Int32], keep: Int, radius: Double, after: DistancePosition?, bound: (Int32) -> Double?,
        id: (Int32) -> String, measure: (Int32) -> (distance: Double, match: Match)?
    ) -> [(position: DistancePosition, match: Match)] {
        var bounded: [(bound: Double, slot: Int32)] = []
        bounded.reserveCapacity(slots.count)
        for slot in slots {
            if let lower = bound(slot), lower <= radius { bounded.append((lower, slot)) }
        }
        bounded.sort { $0.bound < $1.bound }
        var best = BestMatches(keep: keep, radius: radius, after: after)
        for (lower, slot) in bounded {
            if lower > best.cutoff { break }
            guard let (distance, match) = measure(slot) else { continue }
            best.offer(distance, id: { id(slot) }, match: { match })
        }
        return best.items
    }
}
