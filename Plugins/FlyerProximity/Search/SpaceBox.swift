/// An axis-aligned box in Earth-centred coordinates. Its distance from a point is never more
/// than the chord to anything it contains, so it bounds every geodesic distance inside it from below.
struct SpaceBox: Sendable {
    private(set) var low = EarthPoint(x: .infinity, y: .infinity, z: .infinity)
    private(set) var high = EarthPoint(x: -.infinity, y: -.infinity, z: -.infinity)

    /// An empty box.
    init() {}

    /// The box with corners `low` and `high`.
    init(low: EarthPoint, high: EarthPoint) {
        self.low = low
        self.high = high
    }

    /// Grows the box to hold the ball of radius `margin` around `point`.
    mutating func include(_ point: EarthPoint, margin: Double = 0) {
        low.x = min(low.x, point.x - margin)
        low.y = min(low.y, point.y - margin)
        low.z = min(low.z, point.z - margin)
        high.x = max(high.x, point.x + margin)
        high.y = max(high.y, point.y + margin)
        high.z = max(high.z, point.z + margin)
    }

    /// Grows the box to hold `box` (an empty box changes nothing).
    mutating func include(_ box: SpaceBox) {
        low.x = min(low.x, box.low.x)
        low.y = min(low.y, box.low.y)
        low.z = min(low.z, box.low.z)
        high.x = max(high.x, box.high.x)
        high.y = max(high.y, box.high.y)
        high.z = max(high.z, box.high.z)
    }

    /// Straight-line distance from `point` to the box: 0 inside, infinity for an empty box.
    func distance(from point: EarthPoint) -> Double {
        let dx = max(0, low.x - point.x, point.x - high.x)
        let dy = max(0, low.y - point.y, point.y - high.y)
        let dz = max(0, low.z - point.z, point.z - high.z)
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}
