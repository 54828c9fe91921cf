import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@Suite("FIT export: Garmin's SDK, fitdecode and our decoder read what FITEncoder writes", .serialized)
struct FITEncoderTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A 20-minute run at 1 Hz with two pauses (30 s and 60 s), every sensor, and two laps; `indoor` leaves out positions.
    static func activity(indoor: Bool = false, sport: Sport = .run) throws -> RecordedActivity {
        let origin = try Coordinate(latitude: 52.52, longitude: 13.405)
        let pauses = [
            DateInterval(start: start.addingTimeInterval(400), duration: 30),
            DateInterval(start: start.addingTimeInterval(900), duration: 60)
        ]
        var samples: [RecordedSample] = []
        var distance = 0.0
        for second in 0...1290 {
            let time = start.addingTimeInterval(Double(second))
            if pauses.contains(where: { $0.start < time && time < $0.end }) { continue }
            if !samples.isEmpty, !pauses.contains(where: { $0.end == time }) { distance += 3 }
            let position = try Geodesic.wgs84.direct(from: origin, bearing: 45, distance: distance).destination
            samples.append(
                RecordedSample(
                    time: time, coordinate: indoor ? nil : position, altitude: 34.2 + Double(second % 7),
                    speed: 3, distance: distance, heartRate: Double(120 + second % 40),
                    cadence: Double(160 + second % 21), power: Double(200 + second % 50),
                    temperature: 18))
        }
        let timer = 1290.0 - 90
        return RecordedActivity(
            format: .fit, sport: sport, startTime: start,
            totals: DeviceTotals(
                distance: distance, timerTime: timer, elapsedTime: 1290, averageHeartRate: 139.5,
                maxHeartRate: 159, averageCadence: 170, averagePower: 224, ascent: 12, descent: 11),
            laps: [
                DeviceLap(start: start, timerTime: 570, distance: 1707),
                DeviceLap(start: start.addingTimeInterval(600), timerTime: 630, distance: distance - 1707)
            ],
            samples: samples, pauses: pauses)
    }

    @Test("a run with pauses: our decoder reads back every record, pause, lap and total", arguments: [false, true])
    func roundTrip(indoor: Bool) throws {
        let original = try Self.activity(indoor: indoor)
        let bytes = FITEncoder.encode(original)
        let back = try #require(try ActivityFileReader.read(Data(bytes), file: "export.fit").first)
        #expect(back.sport == .run && back.format == .fit && back.warnings.isEmpty)
        #expect(back.startTime == original.startTime)
        #expect(back.pauses == original.pauses)
        #expect(back.samples.count == original.samples.count)
        for (a, b) in zip(original.samples, back.samples) {
            #expect(
                a.time == b.time && a.heartRate == b.heartRate && a.power == b.power && a.temperature == b.temperature)
            #expect(a.cadence == b.cadence && a.distance == b.distance && a.speed == b.speed)
            #expect(abs((a.altitude ?? 0) - (b.altitude ?? 0)) <= 0.1)
            #expect((a.coordinate == nil) == (b.coordinate == nil))
            if let p = a.coordinate, let q = b.coordinate {
                #expect(abs(p.latitude - q.latitude) < 1e-7 && abs(p.longitude - q.longitude) < 1e-7)
            }
        }
        let totals = try #require(back.totals)
        let want = try #require(original.totals)
        #expect(abs((totals.distance ?? 0) - (want.distance ?? 0)) <= 0.01 && totals.timerTime == want.timerTime)
        // FIT keeps whole beats per minute.
        #expect(totals.elapsedTime == want.elapsedTime && totals.averageHeartRate == 140)
        #expect(totals.averageCadence == want.averageCadence && totals.averagePower == want.averagePower)
        #expect(back.laps == original.laps)
    }

    @Test(
        "Garmin's SDK and fitdecode read the file without error; sport, sub-sport, events and laps as written",
        arguments: [
            (false, Sport.run, "running", "generic"), (true, .run, "running", "treadmill"),
            (true, .ride, "cycling", "indoor_cycling"), (false, .hike, "hiking", "generic")
        ])
    func garminSDKValidates(indoor: Bool, sport: Sport, sportName: String, subSport: String) async throws {
        let original = try Self.activity(indoor: indoor, sport: sport)
        let check = try await FITCheck.run(FITEncoder.encode(original))
        #expect(check.integrity, "Garmin SDK integrity check")
        #expect(check.garminErrors.isEmpty, "\(check.garminErrors)")
        #expect(check.fitdecodeErrors.isEmpty, "\(check.fitdecodeErrors)")
        #expect(check.garminMessages["record_mesgs"] == original.samples.count)
        #expect(check.fitdecodeMessages["record"] == original.samples.count)
        for name in ["file_id_mesgs", "device_info_mesgs", "session_mesgs", "activity_mesgs"] {
            #expect(check.garminMessages[name] == 1, "\(name)")
        }
        #expect(check.garminMessages["lap_mesgs"] == 2)
        // start, stop and start around each of the two pauses, the final stop
        let events = check.events.map { "\($0["event"] ?? "?") \($0["event_type"] ?? "?")" }
        #expect(
            events == [
                "timer start", "timer stop_all", "timer start", "timer stop_all", "timer start", "timer stop_all"
            ])
        #expect(check.session["sport"] as? String == sportName && check.session["sub_sport"] as? String == subSport)
        #expect((check.session["total_timer_time"] as? Double).map { abs($0 - 1200) < 0.001 } == true)
        #expect(
            (check.session["total_distance"] as? Double).map { abs($0 - (original.totals?.distance ?? 0)) < 0.01 }
                == true)
        #expect(check.session["avg_heart_rate"] as? Int == 140)
        #expect(check.session["num_laps"] as? Int == 2)
    }

    @Test(
        "every readable shared FIT file, written again, passes Garmin's SDK and reads back the same",
        arguments: try TestData.files(in: "fit", suffix: ".fit"))
    func sharedFilesWrittenAgain(url: URL) async throws {
        guard let activities = try? ActivityFileReader.read(contentsOf: url) else { return }  // the damaged ones
        for original in activities {
            let bytes = FITEncoder.encode(original)
            let back = try #require(try ActivityFileReader.read(Data(bytes), file: url.lastPathComponent).first)
            #expect(back.samples.count == original.samples.count)
            #expect(back.pauses.count == original.pauses.count)
            #expect(
                back.totals?.distance.map { abs($0 - (original.totals?.distance ?? 0)) <= 0.01 }
                    ?? (original.totals?.distance == nil))
            #expect(
                back.totals?.timerTime.map { abs($0 - (original.totals?.timerTime ?? 0)) <= 0.001 }
                    ?? (original.totals?.timerTime == nil))
            #expect(back.laps.count == max(1, original.laps.count))
            let check = try await FITCheck.run(bytes)
            #expect(
                check.integrity && check.garminErrors.isEmpty && check.fitdecodeErrors.isEmpty,
                "\(check.garminErrors) \(check.fitdecodeErrors)")
        }
    }
}
