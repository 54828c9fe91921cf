/// What the measurement was made with: positions from a GPS receiver, a wheel sensor or foot pod (no positions),
/// or nothing (a run with time only).
package enum DistanceSource: String, Sendable, Codable, CaseIterable {
    case gps, sensor, none
}

/// Where a damaged file's readable part ends and what was wrong there: a run imported with `--salvage` holds what
/// came before.
package struct SalvageMark: Sendable, Equatable {
    /// Byte offset of the damage in the (decompressed) file.
    package var byteOffset: Int
    package var reason: String

    package init(byteOffset: Int, reason: String) {
        self.byteOffset = byteOffset
        self.reason = reason
    }

    /// The mark, or `nil` unless both parts are there (as stored).
    package init?(byteOffset: Int?, reason: String?) {
        guard let byteOffset, let reason else { return nil }
        self.init(byteOffset: byteOffset, reason: reason)
    }
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
