import MeridianCore

/// What a packed index keeps of one flyer (40 bytes, no pointers): enough to filter and measure it.
/// Its anchor and its text are kept beside it (`PackedFlyerIndex.anchors`, `PackedFlyerIndex.texts`).
struct PackedSlot: Sendable, Equatable {
    /// The point (for an area: its representative point).
    var latitude: Double
    var longitude: Double
    /// `radius_m`.
    var radius: Double
    /// Index into the index's categories, or `PackedSlot.uncategorised`.
    var category: Int32
    /// -1 for a point, else the index of the flyer's area.
    var area: Int32
    /// The index of the flyer's validity in the index's `validities`, or `PackedSlot.alwaysValid`
    /// (most flyers have no bounds, so they take no room).
    var validity: Int32

    static let uncategorised: Int32 = -1
    static let alwaysValid: Int32 = -1

    /// The point (checked when the index was built or read, so never `.zero` in practice).
    var coordinate: Coordinate { (try? Coordinate(latitude: latitude, longitude: longitude)) ?? .zero }
}

/// A slot's anchor in single precision (earth-centred metres, `EarthPoint`): each coordinate within 0.25 m of the
/// exact one, so a chord measured to it less `slack` still bounds the distance to the exact point from below. Exact
/// distances come from the slot's latitude and longitude; this only orders and prunes the search. Kept in an array of
/// their own (12 bytes each), so that bounding a part's points reads five to a cache line.
struct PackedAnchor: Sendable, Equatable {
    var x: Float
    var y: Float
    var z: Float

    init(_ point: EarthPoint) {
        x = Float(point.x)
        y = Float(point.y)
        z = Float(point.z)
    }

    /// More than the rounding can move the point: at most 0.25 m per coordinate below 2^23 m, 0.44 m in all.
    static let slack = 1.0

    /// A lower bound of the chord from `center` to the exact anchor.
    func chordBound(from center: EarthPoint) -> Double {
        max(0, center.chord(to: EarthPoint(x: Double(x), y: Double(y), z: Double(z))) - Self.slack)
    }
}

/// When a flyer is valid: Unix seconds, -infinity / infinity for an open end.
struct PackedValidity: Sendable, Equatable {
    var from: Double
    var until: Double
}
