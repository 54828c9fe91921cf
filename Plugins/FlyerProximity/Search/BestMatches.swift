import Foundation
import MeridianCore

/// The best `keep` matches seen so far in (distance, id) order, strictly after the cursor: the
/// bookkeeping of one nearest-first pass, shared by the mutable and the packed index.
struct BestMatches<Match> {
    let keep: Int
    let radius: Double
    let after: DistancePosition?
    private(set) var items: [(position: DistancePosition, match: Match)] = []

    init(keep: Int, radius: Double, after: DistancePosition?) {
        self.keep = keep
        self.radius = radius
        self.after = after
        items.reserveCapacity(keep)
    }

    /// Candidates farther than this cannot make the page: the radius until `keep` are kept, then the last kept distance.
    var cutoff: Double { items.count == keep ? items[keep - 1].position.distance : radius }

    /// Keeps the candidate at `distance` when it is within the radius, after the cursor and among the best;
    /// `id` and `match` are asked for only then.
    mutating func offer(_ distance: Double, id: () -> String, match: () -> Match) {
        guard distance <= radius else { return }
        let id = id()
        if let after, !after.precedes(distance, id) { return }
        if items.count == keep, let last = items.last,
            !DistancePosition(distance: distance, id: id).precedes(last.position.distance, last.position.id)
        {
            return
        }
        let index = items.partitioningIndex { !$0.position.precedes(distance, id) }
        // Appended and moved into place: `insert(_:at:)` copies the element through unspecialised generic code.
        items.append((DistancePosition(distance: distance, id: id), match()))
        for position in stride(from: items.count - 1, to: index, by: -1) { items.swapAt(position, position - 1) }
        if items.count > keep { items.removeLast() }
    }

    /// Runs `pass` with the query's radius, or without one with growing radii (1 km, then 4× each time)
    /// until it keeps a page and one more or covers the Earth; returns the page and whether more follow.
    static func page(_ query: NearbyQuery, _ pass: (_ radius: Double, _ keep: Int) -> [Match]) -> (
        matches: [Match], hasMore: Bool
    ) {
        let limit = max(1, query.limit)
        var best: [Match]
        if let radius = query.radius {
            best = pass(radius, limit + 1)
        } else {
            var radius = 1000.0
            while true {
                best = pass(radius, limit + 1)
                if best.count > limit || radius >= worldRadius { break }
                radius *= 4
            }
        }
        return (Array(best.prefix(limit)), best.count > limit)
    }

    /// Every match within `radius` of `center`, a page of 500 at a time through `nearby`.
    static func all(
        within radius: Double, of center: Coordinate, at instant: Date, position: (Match) -> DistancePosition,
        _ nearby: (NearbyQuery) -> (matches: [Match], hasMore: Bool)
    ) -> [Match] {
        var all: [Match] = []
        var after: DistancePosition?
        repeat {
            let page = nearby(NearbyQuery(center: center, radius: radius, limit: 500, at: instant, after: after))
            all += page.matches
            after = page.hasMore ? page.matches.last.map(position) : nil
        } while after != nil
        return all
    }

    /// Beyond this every point of the Earth is inside the search box.
    static var worldRadius: Double { 20_100_000 }
}
