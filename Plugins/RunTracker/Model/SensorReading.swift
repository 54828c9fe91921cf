import MeridianCore

/// What the athlete's sensors measured at one moment: a heart-rate strap, a foot pod, a power meter, a wheel
/// sensor. Live fixes from a GPS receiver carry none; imported activity files usually do. `nil` = not measured.
package struct SensorReading: Sendable, Equatable, Codable {
    /// Heart rate, beats per minute.
    @Measured package var heartRate: Double?
    /// Cadence per minute: steps for runs, walks and hikes, revolutions for rides.
    @Measured package var cadence: Double?
    /// Power, watts.
    @Measured package var power: Double?
    /// Temperature, °C.
    @Measured package var temperature: Double?
    /// A cumulative distance measured by a wheel sensor or foot pod (or the device's own total), metres.
    /// It counts only while the run has no GPS route yet (indoor, treadmill, before the first fix).
    @Measured package var distance: Double?

    package init(
        heartRate: Double? = nil, cadence: Double? = nil, power: Double? = nil, temperature: Double? = nil,
        distance: Double? = nil
    ) {
        self.heartRate = heartRate.flatMap(Self.valid)
        self.cadence = cadence.flatMap(Self.valid)
        self.power = power.flatMap(Self.valid)
        self.temperature = temperature.flatMap { $0.isFinite ? $0 : nil }
        self.distance = distance.flatMap(Self.valid)
    }

    /// No sensor values.
    package static let none = SensorReading()

    /// A finite, non-negative value; anything else is not a measurement.
    private static func valid(_ value: Double) -> Double? {
        value.isFinite && value >= 0 ? value : nil
    }
}
