import MeridianCore

/// What a packed index keeps of one flyer (64 bytes, no pointers): enough to find and measure it.
/// Its text is packed beside it (`PackedFlyerIndex.texts`).
struct PackedSlot: Sendable, Equatable {
    /// The point itself, or the area's anchor.
    var anchor: EarthPoint
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

/// When a flyer is valid: Unix seconds, -infinity / infinity for an open end.
struct PackedValidity: Sendable, Equatable {
    var from: Double
    var until: Double
}
