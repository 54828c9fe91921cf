import Foundation

/// One position report, the single value that flows from every provider to every consumer.
///
/// All quantities are SI: metres, metres per second, degrees. Anything a
/// receiver did not report is `nil`.
public struct Fix: Sendable, Equatable {
    /// UTC time of the measurement (the receiver's clock, not the arrival time).
    public var time: Date
    /// Position; `nil` when the receiver has no fix.
    public var coordinate: Coordinate?
    /// Altitude above the WGS84 ellipsoid, metres.
    public var altitudeHAE: Double?
    /// Altitude above mean sea level (geoid), metres.
    public var altitudeMSL: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true, 0..<360.
    public var course: Double?
    /// Horizontal accuracy (1-sigma-ish estimated position error), metres.
    public var horizontalAccuracy: Double?
    /// Vertical accuracy, metres.
    public var verticalAccuracy: Double?
    /// Dimension of the solution.
    public var mode: FixMode
    /// How the solution was obtained.
    public var quality: FixQuality?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Id of the provider (from the configuration) that produced the fix.
    public var providerID: String

    public init(
        time: Date,
        coordinate: Coordinate?,
        altitudeHAE: Double? = nil,
        altitudeMSL: Double? = nil,
        speed: Double? = nil,
        course: Double? = nil,
        horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil,
        mode: FixMode,
        quality: FixQuality? = nil,
        satellitesUsed: Int? = nil,
        providerID: String
    ) {
        self.time = time
        self.coordinate = coordinate
        self.altitudeHAE = altitudeHAE
        self.altitudeMSL = altitudeMSL
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.mode = mode
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.providerID = providerID
    }

    /// True when the fix carries a usable position (2D or 3D with a coordinate).
    public var hasPosition: Bool { coordinate != nil && mode != .noFix }

    /// Best available altitude: above mean sea level, else above the ellipsoid.
    public var altitude: Double? { altitudeMSL ?? altitudeHAE }

    /// Signal quality derived from the horizontal accuracy; `nil` when the accuracy is unknown.
    public var signalQuality: SignalQuality? { SignalQuality(horizontalAccuracy: horizontalAccuracy) }
}

/// Dimension of a solution, numbered as gpsd does (1 no fix, 2 2D, 3 3D).
public enum FixMode: Int, Sendable, Codable, Comparable {
    case noFix = 1
    case twoD = 2
    case threeD = 3

    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How a solution was obtained (GGA quality indicator, gpsd `status`).
public enum FixQuality: String, Sendable, Codable, CaseIterable {
    case gps
    case dgps
    case rtkFixed = "rtk_fixed"
    case rtkFloat = "rtk_float"
    case deadReckoning = "dead_reckoning"
    case gnssDeadReckoning = "gnss_dead_reckoning"
    case manual
    case simulated
    case pps
}

/// User-facing signal level from the horizontal accuracy.
public enum SignalQuality: String, Sendable, Codable {
    /// Better than 10 m.
    case good
    /// 10 to 20 m.
    case fair
    /// 20 to 50 m.
    case poor
    /// Worse than 50 m.
    case unusable

    /// Classifies an accuracy in metres; `nil` when it is unknown or not a valid number.
    public init?(horizontalAccuracy: Double?) {
        guard let accuracy = horizontalAccuracy, accuracy.isFinite, accuracy >= 0 else { return nil }
        switch accuracy {
        case ..<10: self = .good
        case ..<20: self = .fair
        case ...50: self = .poor
        default: self = .unusable
        }
    }
}
