import ActivityFiles

extension RecordedSample {
    /// What the athlete's sensors measured with the sample.
    var sensors: SensorReading {
        SensorReading(heartRate: heartRate, cadence: cadence, power: power, temperature: temperature, distance: distance)
    }
}

extension RecordedActivity {
    /// Whether the file carries the device's own timer events (FIT), so Meridian adds no auto-pause of its own.
    /// TCX files sum the timer per lap but do not mark every pause, so they are auto-paused like GPX.
    var hasDeviceTimer: Bool { format == .fit }
}
