import Foundation
import MeridianCore

/// One received fix as the run tracker recorded it. Every fix is kept; those
/// not used for distance carry the reason in `rejection`. An import holds up to a million of them, so the
/// measurements take 8 bytes each (`Measured`) and `rejection` fills the coordinate's padding: 120 bytes a point.
package struct TrackPoint: Sendable, Equatable, Codable {
    /// Order of arrival within the run, from 0.
    package var sequence: Int
    /// UTC time of the fix.
    package var time: Date
    /// Position, when the fix had one.
    package var coordinate: Coordinate?
    /// Why the point was not used, or `nil` when it was accepted.
    package var rejection: PointRejection?
    /// Altitude in metres (MSL when known, else above the ellipsoid).
    @Measured package var altitude: Double?
    /// Speed over ground reported by the receiver, m/s.
    @Measured package var speed: Double?
    /// Horizontal accuracy, metres.
    @Measured package var horizontalAccuracy: Double?
    /// Segment number: pauses and unbridged jumps start a new segment; no distance is counted across segments.
    package var segment: Int
    /// The run's distance when this point was accepted, metres (`nil` for rejected points). Splits, best efforts
    /// and exports read it, so every figure agrees with the tracker's total.
    @Measured package var distance: Double?
    /// Heart rate, cadence, power and temperature at this point (the sensor distance is not kept per point).
    package var sensors: SensorReading

    package init(
        sequence: Int, time: Date, coordinate: Coordinate?, altitude: Double? = nil, speed: Double? = nil,
        horizontalAccuracy: Double? = nil, segment: Int = 0, rejection: PointRejection? = nil,
        distance: Double? = nil, sensors: SensorReading = .none
    ) {
        self.sequence = sequence
        self.time = time
        self.coordinate = coordinate
        self.altitude = altitude
        self.speed = speed
        self.horizontalAccuracy = horizontalAccuracy
        self.segment = segment
        self.rejection = rejection
        self.distance = distance
        self.sensors = sensors
    }

    /// True when the point counts towards distance and the route.
    package var isAccepted: Bool { rejection == nil }
}

/// Why a received fix was not used.
package enum PointRejection: String, Sendable, Codable, CaseIterable {
    /// The fix had no position (no fix, or 2D/3D missing).
    case noPosition = "no_position"
    /// Horizontal accuracy worse than `max_accuracy_m`, or unknown when required.
    case poorAccuracy = "poor_accuracy"
    /// Reaching it would need a speed above the activity's limit.
    case implausibleJump = "implausible_jump"
    /// Movement within the noise while standing still.
    case stationaryDrift = "stationary_drift"
    /// Closer to the previous stored point than the sampling policy's minimum distance, or sooner than its interval.
    case belowSamplingDistance = "below_sampling_distance"
    /// Received while the run was paused.
    case paused
    /// Older than, or as old as, the previous point.
    case outOfOrder = "out_of_order"
}
