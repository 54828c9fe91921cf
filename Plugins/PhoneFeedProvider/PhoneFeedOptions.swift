import MeridianCore

/// Options of a `phone` provider entry.
package struct PhoneFeedOptions: Decodable, Sendable, Equatable {
    /// Sustained points per second per device; more are rejected.
    package var maxPointsPerSecond: Double = 50
    /// Points a device may send at once above that rate (an offline queue).
    package var maxBurst: Double = 20_000
    /// A device's own fusion priority or `stale_after`, by device name (the others take the entry's).
    package var devices: [String: SourceFusion] = [:]

    package init(maxPointsPerSecond: Double = 50, maxBurst: Double = 20_000, devices: [String: SourceFusion] = [:]) {
        self.maxPointsPerSecond = maxPointsPerSecond
        self.maxBurst = maxBurst
        self.devices = devices
    }

    enum CodingKeys: String, CodingKey {
        case maxPointsPerSecond = "max_points_per_second"
        case maxBurst = "max_burst"
        case devices
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxPointsPerSecond =
            try container.decodeIfPresent(Double.self, forKey: .maxPointsPerSecond) ?? maxPointsPerSecond
        maxBurst = try container.decodeIfPresent(Double.self, forKey: .maxBurst) ?? maxBurst
        devices = try container.decodeIfPresent([String: SourceFusion].self, forKey: .devices) ?? [:]
    }

    /// The documentation of each option, for `meridian plugins`.
    package static let info: [OptionInfo] = [
        OptionInfo(
            "max_points_per_second", "number > 0", default: "50",
            "sustained points per second per device; more are rejected and counted"),
        OptionInfo(
            "max_burst", "number >= 1", default: "20000",
            "points a device may send at once above that rate (a phone's offline queue)"),
        OptionInfo(
            "devices", "map device name → {priority, stale_after}", default: "{}",
            "a device's own fusion priority and stale_after (seconds > 0); other devices take the entry's")
    ]
}
