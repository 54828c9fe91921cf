/// A `SpaceBox` in single precision, rounded outwards (its low corner down, its high corner up): it holds everything
/// the exact box holds, so a distance to it is still a lower bound. The packed index keeps its cells' and parts' boxes
/// this way, in half the bytes.
struct PackedBox: Sendable, Equatable {
    var lowX: Float, lowY: Float, lowZ: Float
    var highX: Float, highY: Float, highZ: Float

    init(_ box: SpaceBox) {
        func down(_ value: Double) -> Float {
            let rounded = Float(value)
            return Double(rounded) > value ? rounded.nextDown : rounded
        }
        func up(_ value: Double) -> Float {
            let rounded = Float(value)
            return Double(rounded) < value ? rounded.nextUp : rounded
        }
        (lowX, lowY, lowZ) = (down(box.low.x), down(box.low.y), down(box.low.z))
        (highX, highY, highZ) = (up(box.high.x), up(box.high.y), up(box.high.z))
    }

    /// The box in double precision.
    var box: SpaceBox {
        SpaceBox(
            low: EarthPoint(x: Double(lowX), y: Double(lowY), z: Double(lowZ)),
            high: EarthPoint(x: Double(highX), y: Double(highY), z: Double(highZ)))
    }

    /// Straight-line distance from `point` to the box: 0 inside, infinity for an empty box.
    func distance(from point: EarthPoint) -> Double { box.distance(from: point) }
}
