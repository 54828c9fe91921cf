/// What the measurement was made with: positions from a GPS receiver, a wheel sensor or foot pod (no positions),
/// or nothing (a run with time only).
package enum DistanceSource: String, Sendable, Codable, CaseIterable {
    case gps, sensor, none
}

/// The device a run was imported from and the totals it computed itself, shown beside Meridian's own figures.
package struct DeviceFigures: Sendable, Equatable {
    /// The device's name as the file gives it (e.g. "garmin fr110"), when known.
    package var name: String?
    /// The device's total distance, metres.
    package var distance: Double?
    /// The device's timer time, seconds.
    package var timerTime: Double?

    /// The figures, or `nil` when the file told nothing about its device.
    package init?(name: String?, distance: Double?, timerTime: Double?) {
        guard name != nil || distance != nil || timerTime != nil else { return nil }
        self.name = name
        self.distance = distance
        self.timerTime = timerTime
    }
}
