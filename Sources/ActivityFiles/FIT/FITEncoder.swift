import Foundation

/// Writes a ``RecordedActivity`` as a FIT activity file: `file_id`, `device_info`, timer `event`s (start, a stop and
/// a start around every pause, a final stop), one `record` per sample, its `lap`s (one over the whole activity when
/// it has none), one `session` with its ``RecordedActivity/totals`` and one `activity`.
public enum FITEncoder {
    /// FIT profile message numbers.
    private enum Message: UInt16 {
        case fileID = 0
        case session = 18
        case lap = 19
        case record = 20
        case event = 21
        case deviceInfo = 23
        case activity = 34
    }

    /// Scale of FIT times in s (`total_timer_time` and the like) and speeds in m/s.
    private static let milli = 1000.0

    /// The activity as FIT bytes. Cadence is written per stride for foot sports (as devices do), `sport` and
    /// `sub_sport` from ``RecordedActivity/sport``; an activity without positions is indoor (treadmill, indoor
    /// cycling, indoor walking).
    public static func encode(_ activity: RecordedActivity, creator: String = "Meridian") -> [UInt8] {
        let samples = activity.samples.sorted { $0.time < $1.time }
        let start = activity.startTime ?? samples.first?.time ?? Date(timeIntervalSince1970: FITTime.unixOffset)
        let end = max(samples.last?.time ?? start, start)
        let (sport, subSport) = sportNumbers(activity.sport, indoor: !samples.contains { $0.coordinate != nil })
        var writer = FITMessageWriter()
        writer.write(
            Message.fileID.rawValue,
            [
                FITFieldValue(0, .enumeration, 4), FITFieldValue(1, .uint16, 255), FITFieldValue(2, .uint16, 0),
                FITFieldValue(4, .uint32, time(start)), FITFieldValue(8, text: creator, size: 20)
            ])
        writer.write(
            Message.deviceInfo.rawValue,
            [
                FITFieldValue(253, .uint32, time(start)), FITFieldValue(0, .uint8, 0), FITFieldValue(2, .uint16, 255),
                FITFieldValue(4, .uint16, 0), FITFieldValue(27, text: creator, size: 20)
            ])
        writer.write(Message.event.rawValue, timer(at: start, running: true))
        let pauses = activity.pauses.sorted { $0.start < $1.start }
        var nextPause = 0
        let record = RecordLayout(samples, stepsPerStride: activity.sport?.countsSteps == true)
        for sample in samples {
            // A pause is written before the first sample after it (a pause after the last sample is the final stop).
            while nextPause < pauses.count, pauses[nextPause].end <= sample.time {
                writer.write(Message.event.rawValue, timer(at: pauses[nextPause].start, running: false))
                writer.write(Message.event.rawValue, timer(at: pauses[nextPause].end, running: true))
                nextPause += 1
            }
            writer.write(Message.record.rawValue, record.fields(sample))
        }
        writer.write(Message.event.rawValue, timer(at: end, running: false))

        let totals = activity.totals ?? DeviceTotals()
        let laps =
            activity.laps.isEmpty
            ? [
                DeviceLap(
                    start: start, timerTime: totals.timerTime, distance: totals.distance,
                    averageHeartRate: totals.averageHeartRate, maxHeartRate: totals.maxHeartRate, trigger: .sessionEnd)
            ]
            : activity.laps
        for (index, lap) in laps.enumerated() {
            let lapEnd = index + 1 < laps.count ? laps[index + 1].start : end
            writer.write(
                Message.lap.rawValue,
                [
                    FITFieldValue(254, .uint16, Int64(index)), FITFieldValue(253, .uint32, time(lapEnd)),
                    FITFieldValue(0, .enumeration, 9), FITFieldValue(1, .enumeration, 1),
                    FITFieldValue(2, .uint32, time(lap.start)),
                    FITFieldValue(7, .uint32, max(0, lapEnd.timeIntervalSince(lap.start)), scale: milli),
                    FITFieldValue(8, .uint32, lap.timerTime, scale: milli),
                    FITFieldValue(9, .uint32, lap.distance, scale: 100),
                    FITFieldValue(15, .uint8, lap.averageHeartRate, scale: 1),
                    FITFieldValue(16, .uint8, lap.maxHeartRate, scale: 1),
                    FITFieldValue(24, .enumeration, lap.trigger?.fitNumber), FITFieldValue(25, .enumeration, sport),
                    FITFieldValue(39, .enumeration, subSport)
                ])
        }
        let elapsed = totals.elapsedTime ?? end.timeIntervalSince(start)
        let averageSpeed = totals.distance.flatMap { distance in
            totals.timerTime.flatMap { $0 > 0 ? distance / $0 : nil }
        }
        let cadenceFactor = activity.sport?.countsSteps == true ? 0.5 : 1
        writer.write(
            Message.session.rawValue,
            [
                FITFieldValue(254, .uint16, 0), FITFieldValue(253, .uint32, time(end)),
                FITFieldValue(0, .enumeration, 8), FITFieldValue(1, .enumeration, 1),
                FITFieldValue(2, .uint32, time(start)),
                FITFieldValue(5, .enumeration, sport), FITFieldValue(6, .enumeration, subSport),
                FITFieldValue(7, .uint32, elapsed, scale: milli),
                FITFieldValue(8, .uint32, totals.timerTime, scale: milli),
                FITFieldValue(9, .uint32, totals.distance, scale: 100),
                FITFieldValue(14, .uint16, averageSpeed, scale: milli),
                FITFieldValue(15, .uint16, samples.compactMap(\.speed).max(), scale: milli),
                FITFieldValue(16, .uint8, totals.averageHeartRate, scale: 1),
                FITFieldValue(17, .uint8, totals.maxHeartRate, scale: 1),
                FITFieldValue(18, .uint8, totals.averageCadence.map { $0 * cadenceFactor }, scale: 1),
                FITFieldValue(20, .uint16, totals.averagePower, scale: 1),
                FITFieldValue(22, .uint16, totals.ascent, scale: 1),
                FITFieldValue(23, .uint16, totals.descent, scale: 1),
                FITFieldValue(25, .uint16, 0), FITFieldValue(26, .uint16, Int64(laps.count)),
                FITFieldValue(28, .enumeration, 0)
            ])
        writer.write(
            Message.activity.rawValue,
            [
                FITFieldValue(253, .uint32, time(end)), FITFieldValue(0, .uint32, totals.timerTime, scale: milli),
                FITFieldValue(1, .uint16, 1), FITFieldValue(2, .enumeration, 0), FITFieldValue(3, .enumeration, 26),
                FITFieldValue(4, .enumeration, 1)
            ])
        return writer.bytes()
    }

    /// Seconds since the FIT epoch (1989-12-31T00:00:00Z), rounded to the second.
    private static func time(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 - FITTime.unixOffset).rounded())
    }

    /// A timer event: start (type 0) or stop all (type 4), event group 0.
    private static func timer(at date: Date, running: Bool) -> [FITFieldValue] {
        [
            FITFieldValue(253, .uint32, time(date)), FITFieldValue(0, .enumeration, 0),
            FITFieldValue(1, .enumeration, running ? 0 : 4), FITFieldValue(4, .uint8, 0)
        ]
    }

    /// FIT `sport` and `sub_sport`: running 1, cycling 2, walking 11, hiking 17, else generic 0; indoors treadmill 1,
    /// indoor cycling 6, indoor walking 27, else generic 0.
    static func sportNumbers(_ sport: Sport?, indoor: Bool) -> (Int64, Int64) {
        switch sport {
        case .run?: return (1, indoor ? 1 : 0)
        case .ride?: return (2, indoor ? 6 : 0)
        case .walk?: return (11, indoor ? 27 : 0)
        case .hike?: return (17, 0)
        case .other?, nil: return (0, 0)
        }
    }
}

/// The fields of every `record` of one file: those some sample has (one definition serves all records).
private struct RecordLayout {
    var position = false, altitude = false, distance = false, speed = false
    var heartRate = false, cadence = false, power = false, temperature = false
    /// Cadence is stored per stride for foot sports.
    let cadenceFactor: Double

    init(_ samples: [RecordedSample], stepsPerStride: Bool) {
        cadenceFactor = stepsPerStride ? 0.5 : 1
        for sample in samples {
            position = position || sample.coordinate != nil
            altitude = altitude || sample.altitude != nil
            distance = distance || sample.distance != nil
            speed = speed || sample.speed != nil
            heartRate = heartRate || sample.heartRate != nil
            cadence = cadence || sample.cadence != nil
            power = power || sample.power != nil
            temperature = temperature || sample.temperature != nil
        }
    }

    func fields(_ sample: RecordedSample) -> [FITFieldValue] {
        var fields = [
            FITFieldValue(253, .uint32, Int64((sample.time.timeIntervalSince1970 - FITTime.unixOffset).rounded()))
        ]
        if position {
            // Semicircles: 2^31 of them make 180°; +180° longitude is written as −180° (the same meridian).
            let semicircles = 2_147_483_648.0 / 180
            let longitude = sample.coordinate.map { $0.longitude >= 180 ? -180 : $0.longitude }
            fields += [
                FITFieldValue(0, .sint32, sample.coordinate?.latitude, scale: semicircles),
                FITFieldValue(1, .sint32, longitude, scale: semicircles)
            ]
        }
        if altitude { fields.append(FITFieldValue(2, .uint16, sample.altitude, scale: 5, offset: 500)) }
        if heartRate { fields.append(FITFieldValue(3, .uint8, sample.heartRate, scale: 1)) }
        if cadence {
            let perStride = sample.cadence.map { $0 * cadenceFactor }
            let whole = perStride.map { $0.rounded(.down) }
            fields += [
                FITFieldValue(4, .uint8, whole, scale: 1),
                FITFieldValue(53, .uint8, perStride.flatMap { value in whole.map { value - $0 } }, scale: 128)
            ]
        }
        if distance { fields.append(FITFieldValue(5, .uint32, sample.distance, scale: 100)) }
        if speed { fields.append(FITFieldValue(6, .uint16, sample.speed, scale: 1000)) }
        if power { fields.append(FITFieldValue(7, .uint16, sample.power, scale: 1)) }
        if temperature { fields.append(FITFieldValue(13, .sint8, sample.temperature, scale: 1)) }
        return fields
    }
}
