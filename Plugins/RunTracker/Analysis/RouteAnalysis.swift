import MeridianCore

/// The route of a run: straight-line efficiency and a simplified polyline for display.
package struct RouteAnalysis: Sendable, Equatable, Codable {
    /// Geodesic distance from the first to the last accepted point, metres.
    package var straightLine: Double
    /// Distance run over straight-line distance (1 is a perfectly straight route); `nil` for loops
    /// (start and finish closer than `loopThreshold` or `loopFraction` of the distance), where the ratio means nothing.
    @NullWhenAbsent package var efficiency: Double?
    /// Start and finish closer than `loopThreshold`, or than `loopFraction` of the distance.
    package var isLoop: Bool
    /// Douglas–Peucker tolerance used, metres (0 when nothing had to be dropped).
    package var tolerance: Double
    /// The simplified route, one list of `[lat, lon]` per segment.
    package var segments: [[[Double]]]
    /// Points in `segments`, at most the requested maximum.
    package var pointCount: Int

    /// Start and finish closer than this (metres) make a loop.
    package static let loopThreshold = 50.0
    /// Start and finish closer than this part of the distance covered make a loop too (a 92 km ride ending 70 m
    /// from its start is a loop, not a route 127 times longer than the straight line).
    package static let loopFraction = 0.05

    enum CodingKeys: String, CodingKey {
        case straightLine = "straightLineM"
        case efficiency
        case isLoop = "loop"
        case tolerance = "toleranceM"
        case segments
        case pointCount = "points"
    }

    /// Analyses the accepted points, grouped by segment, of a run that covered `distance` metres,
    /// keeping at most `maxPoints` points (at least 2 per segment are always kept).
    package init(segments: [[Coordinate]], distance: Double, maxPoints: Int, geodesic: Geodesic = .wgs84) {
        let all = segments.flatMap { $0 }
        if let first = all.first, let last = all.last {
            straightLine = geodesic.distance(first, last)
        } else {
            straightLine = 0
        }
        isLoop = straightLine < max(Self.loopThreshold, distance * Self.loopFraction)
        efficiency = isLoop ? nil : distance / straightLine
        let (tolerance, kept) = Self.simplify(segments, maxPoints: maxPoints, geodesic: geodesic)
        self.tolerance = tolerance
        self.segments = kept.map { $0.map { [$0.latitude, $0.longitude] } }
        pointCount = kept.reduce(0) { $0 + $1.count }
    }

    /// Searches the smallest Douglas–Peucker tolerance (to about 2 %) whose result has at most `maxPoints`
    /// points over all segments, by bisection on a logarithmic scale.
    static func simplify(_ segments: [[Coordinate]], maxPoints: Int, geodesic: Geodesic) -> (Double, [[Coordinate]]) {
        let total = segments.reduce(0) { $0 + $1.count }
        guard total > maxPoints else { return (0, segments) }
        func run(_ tolerance: Double) -> [[Coordinate]] {
            segments.map { geodesic.simplified($0, tolerance: tolerance) }
        }
        func count(_ simplified: [[Coordinate]]) -> Int { simplified.reduce(0) { $0 + $1.count } }
        var low = 0.01
        var high = 1.0
        var best = run(high)
        while count(best) > maxPoints, high < 1e7 {
            low = high
            high *= 10
            best = run(high)
        }
        while high / low > 1.02 {
            let middle = (low * high).squareRoot()
            let candidate = run(middle)
            if count(candidate) <= maxPoints {
                high = middle
                best = candidate
            } else {
                low = middle
            }
        }
        return (high, best)
    }
}
