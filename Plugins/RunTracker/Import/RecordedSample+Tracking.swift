import ActivityFiles

extension RecordedSample {
    /// What the athlete's sensors measured with the sample; `stridesToSteps` doubles the cadence (a foot activity whose
    /// file named no sport: the reader left the device's strides per minute as they were).
    func sensors(stridesToSteps: Bool) -> SensorReading {
        SensorReading(
            heartRate: heartRate, cadence: cadence.map { stridesToSteps ? $0 * 2 : $0 }, power: power,
            temperature: temperature, distance: distance)
    }
}

extension RecordedActivity {
    /// Whether the file carries the device's own timer events (FIT), so Meridian adds no auto-pause of its own.
    /// TCX files sum the timer per lap but do not mark every pause, so they are auto-paused like GPX.
    var hasDeviceTimer: Bool { format == .fit }
}
