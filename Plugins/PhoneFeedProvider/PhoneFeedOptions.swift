import MeridianCore

/// Options of a `phone` provider entry.
public struct PhoneFeedOptions: Decodable, Sendable, Equatable {
    /// Sustained points per second per device; more are rejected.
    public var maxPointsPerSecond: Double = 50
    /// Points a device may send at once above that rate (an offline queue).
    public var maxBurst: Double = 20_000

    public init(maxPointsPerSecond: Double = 50, maxBurst: Double = 20_000) {
        self.maxPointsPerSecond = maxPointsPerSecond
        self.maxBurst = maxBurst
    }

    enum CodingKeys: String, CodingKey { case maxPointsPerSecond = "max_points_per_second", maxBurst = "max_burst" }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxPointsPerSecond = try container.decodeIfPresent(Double.self, forKey: .maxPointsPerSecond) ?? maxPointsPerSecond
        maxBurst = try container.decodeIfPresent(Double.self, forKey: .maxBurst) ?? maxBurst
    }

    /// The documentation of each option, for `meridian plugins`.
    public static let info: [OptionInfo] = [
        OptionInfo("max_points_per_second", "number > 0", default: "50", "sustained points per second per device; more are rejected and counted"),
        OptionInfo("max_burst", "number >= 1", default: "20000", "points a device may send at once above that rate (a phone's offline queue)"),
    ]
}
