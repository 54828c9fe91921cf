/// The part of a run measured by a distance sensor (wheel sensor, foot pod) before any GPS route: indoor and
/// treadmill runs, and the minutes before a receiver's first fix.
struct SensorProgress: Sendable, Equatable, Codable {
    /// The last reading of the sensor's cumulative distance while tracking.
    var baseline: Baseline?
    /// Metres counted from the sensor.
    var distance = 0.0
    /// Set by the first GPS route point: from then on the route is measured from positions.
    var gpsRouteStarted = false

    struct Baseline: Sendable, Equatable, Codable {
        var distance: Double
        var time: Double
    }
}

extension SensorProgress: AddedStatePart {}
