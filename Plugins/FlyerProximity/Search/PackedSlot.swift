import MeridianCore

/// What a packed index keeps of one flyer (80 bytes, no pointers): enough to find and measure it.
/// Its text is packed beside it (`PackedFlyerIndex.texts`).
struct PackedSlot: Sendable, Equatable {
    /// The point itself, or the area's anchor.
    var anchor: EarthPoint
    /// The point (for an area: its representative point).
    var latitude: Double
    var longitude: Double
    /// Unix seconds; -infinity / infinity when open.
    var validFrom: Double
    var validUntil: Double
    /// `radius_m`.
    var radius: Double
    /// 0 for points; for areas every point is within this many metres of the anchor.
    var reach: Double
    /// Index into the index's categories, or `PackedSlot.uncategorised`.
    var category: Int32
    /// -1 for a point, else the index of the flyer's area.
    var area: Int32

    static let uncategorised: Int32 = -1

    /// The point (checked when the index was built or read, so never `.zero` in practice).
    var coordinate: Coordinate { (try? Coordinate(latitude: latitude, longitude: longitude)) ?? .zero }
}
