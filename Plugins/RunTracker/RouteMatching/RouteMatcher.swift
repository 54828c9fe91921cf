import MeridianCore

/// When two runs follow the same route: they start within `endDistance` of each other and finish within
/// `endDistance` of each other, and their paths (simplified to `RunTrack.tolerance`, then densified every
/// `spacing` metres) are within `pathDistance` in discrete Fréchet distance, which also requires the same
/// direction. The leading and trailing stretch by which one run started earlier or finished later than the other
/// (at most `endDistance`) is left out of the path comparison.
package struct RouteMatcher: Sendable, Equatable {
    /// The `route_match_m` option, metres.
    package var pathDistance: Double
    /// How far apart the starts (and the finishes) may be, metres.
    package var endDistance: Double = 100
    /// Spacing of the densified paths, metres.
    static let spacing = 10.0

    /// The default of `route_match_m`, metres.
    package static let defaultPathDistance = 50.0

    package init(pathDistance: Double = RouteMatcher.defaultPathDistance) {
        self.pathDistance = pathDistance
    }

    /// Whether `a` and `b` are on the same route.
    package func matches(_ a: RunTrack, _ b: RunTrack) -> Bool {
        guard couldMatch(a, b) else { return false }
        return sameRoute(Self.densified(a), Self.densified(b))
    }

    /// The cheap tests: ends near each other, each box (grown by the path distance) holding the other.
    func couldMatch(_ a: RunTrack, _ b: RunTrack) -> Bool {
        let ends = NearnessTest(limit: endDistance)
        guard ends.isNear(a.start, b.start), ends.isNear(a.finish, b.finish) else { return false }
        return a.box.grown(by: pathDistance).contains(b.box) && b.box.grown(by: pathDistance).contains(a.box)
    }

    /// A track's path densified for `sameRoute`.
    static func densified(_ track: RunTrack) -> [Coordinate] {
        DiscreteFrechet.densified(track.path, spacing: spacing)
    }

    /// The path comparison of two densified paths whose ends are already known to be near.
    func sameRoute(_ a: [Coordinate], _ b: [Coordinate]) -> Bool {
        let (a, b) = alignedEnds(a, b)
        return DiscreteFrechet.within(a, b, limit: pathDistance)
    }

    /// Both paths without the stretch one of them ran before the other started, or after it finished: each path
    /// starts at its point nearest to the other's start (searched within its first `endDistance` plus a margin),
    /// and likewise ends.
    func alignedEnds(_ a: [Coordinate], _ b: [Coordinate]) -> ([Coordinate], [Coordinate]) {
        guard let aStart = a.first, let bStart = b.first, let aFinish = a.last, let bFinish = b.last else {
            return (a, b)
        }
        let reach = Int(((endDistance + pathDistance) / Self.spacing).rounded(.up)) + 1
        let aFirst = Self.nearestIndex(to: bStart, in: a, indices: 0..<min(a.count, reach))
        let bFirst = Self.nearestIndex(to: aStart, in: b, indices: 0..<min(b.count, reach))
        let aLast = Self.nearestIndex(to: bFinish, in: a, indices: max(aFirst, a.count - reach)..<a.count)
        let bLast = Self.nearestIndex(to: aFinish, in: b, indices: max(bFirst, b.count - reach)..<b.count)
        return (Array(a[aFirst...max(aFirst, aLast)]), Array(b[bFirst...max(bFirst, bLast)]))
    }

    private static func nearestIndex(to target: Coordinate, in path: [Coordinate], indices: Range<Int>) -> Int {
        indices.min { FlatDistance.metres(path[$0], target) < FlatDistance.metres(path[$1], target) }
            ?? indices.lowerBound
    }
}
