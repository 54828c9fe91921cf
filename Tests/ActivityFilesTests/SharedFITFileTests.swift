import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

/// What the shared FIT files hold, from their PROVENANCE.md (device session totals, record
/// counts, sensors), plus the mean heart rate over the records and the timer pauses, both
/// cross-checked record by record against python-fitparse while the decoder was written.
struct FITTruth: CustomTestStringConvertible, Sendable {
    var name: String
    var device: String
    var sportName: String
    var sport: Sport?
    var distance: Double
    var timer: Double
    var elapsed: Double
    var records: Int
    var withPosition: Int
    var heartRate: Bool
    var cadence: Bool
    var power: Bool
    /// Mean of the records' heart rates.
    var recordHeartRateMean: Double?
    /// Device average heart rate from the session.
    var deviceHeartRate: Double?
    /// Timer stop→start intervals and their total, s.
    var pauses: Int = 0
    var pausedSeconds: Double = 0

    var testDescription: String { name }
}

@Suite("FIT: the shared device files")
struct SharedFITFileTests {
    static let truths: [FITTruth] = [
        .init(
            name: "fitparse__2013-02-06-12-11-14.fit", device: "garmin fr110", sportName: "running", sport: .run,
            distance: 4835.38, timer: 2625.14, elapsed: 2625.14, records: 590, withPosition: 583,
            heartRate: true, cadence: false, power: false, recordHeartRateMean: 148.0898305, deviceHeartRate: 147),
        .init(
            name: "fitparse__20170518-191602-1740899583.fit", device: "garmin vivo_active_hr",
            sportName: "fitness_equipment",
            sport: .other, distance: 0, timer: 1707.308, elapsed: 1707.308, records: 1641, withPosition: 0,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 131.4198659, deviceHeartRate: 132),
        .init(
            name: "fitparse__Activity.fit", device: "dynastream hrm1", sportName: "running", sport: .run,
            distance: 5.73, timer: 13.749, elapsed: 13.749, records: 14, withPosition: 14,
            heartRate: false, cadence: false, power: false),
        .init(
            name: "fitparse__activity-small-fenix2-run.fit", device: "garmin fenix2", sportName: "running", sport: .run,
            distance: 9008.22, timer: 2832, elapsed: 2832, records: 2809, withPosition: 2809,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 153.9764957),
        .init(
            name: "fitparse__compressed-speed-distance.fit", device: "garmin fr70", sportName: "running", sport: .run,
            distance: 10248.67, timer: 3772.75, elapsed: 3883.273, records: 755, withPosition: 0,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 170.5212202, deviceHeartRate: 170,
            pauses: 1, pausedSeconds: 110),
        .init(
            name: "fitparse__elemnt-bolt-no-application-id-inside-developer-data-id.fit", device: "wahoo_fitness 31",
            sportName: "cycling", sport: .ride, distance: 963.65, timer: 132, elapsed: 140, records: 132,
            withPosition: 131,
            heartRate: false, cadence: true, power: true),
        .init(
            name: "fitparse__garmin-edge-500-activity.fit", device: "garmin edge500", sportName: "cycling",
            sport: .ride,
            distance: 92622.34, timer: 10641.06, elapsed: 12691.28, records: 10686, withPosition: 10677,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 162.8480255, deviceHeartRate: 162,
            pauses: 46, pausedSeconds: 2048),
        .init(
            name: "fitparse__garmin-fenix-5-bike.fit", device: "garmin fenix5", sportName: "cycling", sport: .ride,
            distance: 459.52, timer: 60.363, elapsed: 60.363, records: 19, withPosition: 19,
            heartRate: true, cadence: false, power: false, recordHeartRateMean: 98.5789474, deviceHeartRate: 101),
        .init(
            name: "fitparse__garmin-fenix-5-run.fit", device: "garmin fenix5", sportName: "running", sport: .run,
            distance: 157.56, timer: 56.887, elapsed: 56.887, records: 21, withPosition: 21,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 84.9523810, deviceHeartRate: 90),
        .init(
            name: "fitparse__garmin-fenix-5-walk.fit", device: "garmin fenix5", sportName: "walking", sport: .walk,
            distance: 67.85, timer: 45.379, elapsed: 45.379, records: 17, withPosition: 17,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 75.3529412, deviceHeartRate: 75),
        .init(
            name: "fitparse__sample-activity.fit", device: "garmin edge500", sportName: "cycling", sport: .ride,
            distance: 88797.21, timer: 10699.36, elapsed: 11741.57, records: 3098, withPosition: 2965,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 165.5154939, deviceHeartRate: 166,
            pauses: 28, pausedSeconds: 1038),
        .init(
            name: "sportstracker__Garmin_Edge_820-Cycling.fit", device: "garmin edge_820", sportName: "cycling",
            sport: .ride,
            distance: 51109.77, timer: 7096.263, elapsed: 7647.249, records: 1932, withPosition: 1932,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 134.0103520, deviceHeartRate: 134,
            pauses: 16, pausedSeconds: 551),
        .init(
            name: "sportstracker__Garmin_Fenix2_running_with_hrm.fit", device: "garmin fenix2", sportName: "generic",
            sport: nil, distance: 6234.99, timer: 2396, elapsed: 2396, records: 2392, withPosition: 2392,
            heartRate: true, cadence: true, power: false, recordHeartRateMean: 169.0748328)
    ]

    @Test("every shared FIT file against its provenance", arguments: truths)
    func sharedFile(truth: FITTruth) throws {
        let activities = try ActivityFileReader.read(contentsOf: TestData.url("fit/\(truth.name)"))
        #expect(activities.count == 1)
        let activity = try #require(activities.first)
        #expect(activity.format == .fit)
        #expect(activity.device == truth.device)
        #expect(activity.sportName == truth.sportName)
        #expect(activity.sport == truth.sport)
        let totals = try #require(activity.totals)
        // Distance is stored in centimetres, times in milliseconds.
        #expect(abs((totals.distance ?? -1) - truth.distance) < 0.005)
        #expect(abs((totals.timerTime ?? -1) - truth.timer) < 0.0005)
        #expect(abs((totals.elapsedTime ?? -1) - truth.elapsed) < 0.0005)
        #expect(totals.averageHeartRate == truth.deviceHeartRate)
        #expect(activity.samples.count == truth.records)
        #expect(activity.samples.filter { $0.coordinate != nil }.count == truth.withPosition)
        #expect(activity.samples.contains { $0.heartRate != nil } == truth.heartRate)
        #expect(activity.samples.contains { $0.cadence != nil } == truth.cadence)
        #expect(activity.samples.contains { $0.power != nil } == truth.power)
        let heartRates = activity.samples.compactMap(\.heartRate)
        if let mean = truth.recordHeartRateMean {
            #expect(abs(heartRates.reduce(0, +) / Double(heartRates.count) - mean) < 1e-6)
        }
        #expect(activity.pauses.count == truth.pauses)
        #expect(abs(activity.pauses.reduce(0) { $0 + $1.duration } - truth.pausedSeconds) < 1e-9)
        #expect(zip(activity.samples, activity.samples.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(activity.skipped.isEmpty, "\(activity.skipped)")
        #expect(activity.startTime != nil)
        #expect(!activity.laps.isEmpty)
    }

    @Test func valuesOfAFenix5Run() throws {
        let activity = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("fit/fitparse__garmin-fenix-5-run.fit")).first)
        let first = try #require(activity.samples.first)
        // fitparse: 2017-06-11 14:34:09, position_lat 456099128, position_long -1463077077 semicircles.
        #expect(ISO8601.string(from: first.time) == "2017-06-11T14:34:09.000Z")
        #expect(first.coordinate?.latitude == 456_099_128 * 180 / 2_147_483_648.0)
        #expect(first.coordinate?.longitude == -1_463_077_077 * 180 / 2_147_483_648.0)
        #expect(activity.startTime == first.time)
        #expect(activity.laps.count == 1)
        #expect(activity.laps.first?.distance == 157.56)
        // Running cadence is stored in strides per minute: reported as steps, 2 × (cadence + fractional_cadence).
        // fitparse reads the first five records as 0, 0, 0, 78.5, 90.0 strides per minute.
        #expect(activity.samples.prefix(5).map(\.cadence) == [0, 0, 0, 157, 180])
    }

    @Test func elementBoltKeepsPowerAndSkipsDeveloperFields() throws {
        let activity = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("fit/fitparse__elemnt-bolt-no-application-id-inside-developer-data-id.fit")
            ).first)
        #expect(activity.samples.compactMap(\.power).count == 115)
        #expect(activity.samples.compactMap(\.horizontalAccuracy).count == 131)
        #expect(activity.samples.compactMap(\.temperature).count == 131)
        #expect(activity.totals?.averagePower == 182)
        // The Bolt stops its timer 8 s before the end and never restarts it: no pause.
        #expect(activity.pauses.isEmpty)
    }

    @Test func edge500TimerStopsAreThePausedTime() throws {
        let activity = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("fit/fitparse__garmin-edge-500-activity.fit")).first)
        let totals = try #require(activity.totals)
        let paused = activity.pauses.reduce(0) { $0 + $1.duration }
        // Elapsed minus timer is what the device did not count; the timer events give it to within 2.3 s.
        #expect(abs((totals.elapsedTime ?? 0) - (totals.timerTime ?? 0) - paused) < 2.3)
        #expect(activity.laps.count == 9)
        #expect(activity.pauses.allSatisfy { $0.duration > 0 })
    }

    @Test func forerunner70WithoutClockIsPlacedOnItsLocalTime() throws {
        let activity = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("fit/fitparse__compressed-speed-distance.fit")).first)
        // Times count from power-on; the activity message's local_timestamp (2012-02-13 12:21:03) anchors them.
        let start = try #require(activity.startTime)
        #expect(ISO8601.string(from: start) == "2012-02-13T11:16:16.000Z")
        #expect(activity.warnings.count == 1)
        #expect(activity.warnings.first?.message.contains("clock was not set") == true)
        // compressed_speed_distance: 12-bit rolling distance in 1/16 m, added up.
        #expect(activity.samples[1].distance == 0)
        #expect(activity.samples[2].distance == 14.25)
        #expect(activity.samples[2].speed == 3.55)
        #expect(activity.laps.count == 11)
    }
}
