import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// Real recorded files through the same import pipeline as `meridian runs import`, against what the devices
/// computed themselves (`../shared/data/fit/PROVENANCE.md`) and what the files themselves show.
@Suite struct TrackingRealFileTests {
    static func recording(_ path: String) throws -> RecordedActivity {
        try #require(try ActivityFileReader.read(contentsOf: TestData.url(path)).first)
    }

    static func track(_ path: String, activity: Activity? = nil) throws -> TrackedRecording {
        try #require(RunImport.track(try recording(path), name: path, activity: activity))
    }

    /// A device file and how close Meridian's distance must be to the device's.
    struct DeviceFile: Sendable, CustomTestStringConvertible {
        var path: String
        var tolerance: Double
        var testDescription: String { path }
    }

    /// GPS runs and walks within 1.5 %, rides within 3 % (bike computers may count wheel turns), files without
    /// positions (foot pod, treadmill) within 0.5 % of the device's own distance.
    static let devices: [DeviceFile] = [
        DeviceFile(path: "fit/fitparse__activity-small-fenix2-run.fit", tolerance: 0.015),
        DeviceFile(path: "fit/fitparse__garmin-fenix-5-run.fit", tolerance: 0.015),
        DeviceFile(path: "fit/fitparse__garmin-fenix-5-walk.fit", tolerance: 0.015),
        DeviceFile(path: "fit/sportstracker__Garmin_Fenix2_running_with_hrm.fit", tolerance: 0.015),
        DeviceFile(path: "fit/fitparse__elemnt-bolt-no-application-id-inside-developer-data-id.fit", tolerance: 0.03),
        DeviceFile(path: "fit/fitparse__garmin-edge-500-activity.fit", tolerance: 0.03),
        DeviceFile(path: "fit/fitparse__garmin-fenix-5-bike.fit", tolerance: 0.03),
        DeviceFile(path: "fit/fitparse__sample-activity.fit", tolerance: 0.03),
        DeviceFile(path: "fit/sportstracker__Garmin_Edge_820-Cycling.fit", tolerance: 0.03),
        DeviceFile(path: "fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx", tolerance: 0.03),
        DeviceFile(path: "fit/fitparse__compressed-speed-distance.fit", tolerance: 0.005),
        DeviceFile(path: "fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx", tolerance: 0.005)
    ]

    @Test(arguments: devices)
    func distanceMatchesTheDevice(_ file: DeviceFile) throws {
        let summary = try Self.track(file.path).summary
        let device = try #require(summary.device?.distance)
        #expect(
            abs(summary.distance - device) <= file.tolerance * device,
            "\(summary.distance) m vs the device's \(device) m")
        #expect(summary.distanceSource == (file.tolerance == 0.005 ? .sensor : .gps))
    }

    /// Two devices count distance while their own speed reads below a walking pace: the Forerunner 110 had no
    /// auto-pause and kept adding GPS drift at stops (80 m while its speed read 0, among them a 4½-minute stop
    /// with the heart rate falling from 159 to 93), and the HRM1 sample creeps 5.7 m in 14 s at 0.1–0.4 m/s.
    /// Meridian counts no distance below the moving speed, so these are compared with the device's distance less
    /// what it counted at those speeds.
    @Test(arguments: ["fit/fitparse__2013-02-06-12-11-14.fit", "fit/fitparse__Activity.fit"])
    func distanceMatchesTheDeviceWhileMoving(_ path: String) throws {
        let recording = try Self.recording(path)
        let summary = try #require(RunImport.track(recording, name: path)).summary
        var whileStanding = 0.0
        for (previous, sample) in zip(recording.samples, recording.samples.dropFirst()) {
            guard let from = previous.distance, let to = sample.distance, let speed = sample.speed,
                speed < TrackerSettings().profile(summary.activity).movingSpeed
            else { continue }
            whileStanding += to - from
        }
        let moving = try #require(summary.device?.distance) - whileStanding
        #expect(whileStanding > 0)
        #expect(abs(summary.distance - moving) <= 0.015 * max(moving, 100), "\(summary.distance) m vs \(moving) m")
    }

    /// Where the device paused its timer, Meridian's moving time is within 2 % of the device's timer, its timer
    /// within 1 %, and there is one segment per stretch between the device's pauses.
    @Test(arguments: [
        ("fit/fitparse__garmin-edge-500-activity.fit", 47), ("fit/fitparse__sample-activity.fit", 29),
        ("fit/sportstracker__Garmin_Edge_820-Cycling.fit", 17)
    ])
    func timerAndSegmentsFollowTheDevicesPauses(path: String, segments: Int) throws {
        let summary = try Self.track(path).summary
        let timer = try #require(summary.device?.timerTime)
        #expect(abs(summary.movingTime - timer) <= 0.02 * timer, "moving \(summary.movingTime) s vs timer \(timer) s")
        #expect(abs(summary.timerTime - timer) <= 0.01 * timer, "timer \(summary.timerTime) s vs \(timer) s")
        #expect(summary.segmentCount == segments)
    }

    /// Average heart rate within 1 bpm of the device's session (or laps') average on every file that has one.
    @Test(arguments: [
        "fit/fitparse__2013-02-06-12-11-14.fit", "fit/fitparse__20170518-191602-1740899583.fit",
        "fit/fitparse__compressed-speed-distance.fit", "fit/fitparse__garmin-edge-500-activity.fit",
        "fit/fitparse__garmin-fenix-5-bike.fit", "fit/fitparse__garmin-fenix-5-run.fit",
        "fit/fitparse__garmin-fenix-5-walk.fit", "fit/fitparse__sample-activity.fit",
        "fit/sportstracker__Garmin_Edge_820-Cycling.fit"
    ])
    func averageHeartRateMatchesTheDevice(_ path: String) throws {
        let recording = try Self.recording(path)
        let summary = try #require(RunImport.track(recording, name: path)).summary
        let device = try #require(recording.totals?.averageHeartRate)
        let ours = try #require(summary.averageHeartRate)
        #expect(abs(ours - device) <= 1, "\(ours) bpm vs the device's \(device)")
        // The device's maximum comes from its own once-a-second readings, which a file may thin out.
        let deviceMaximum = try #require(recording.totals?.maxHeartRate)
        #expect(try #require(summary.maxHeartRate) <= deviceMaximum && summary.maxHeartRate ?? 0 >= deviceMaximum - 1)
    }

    /// The Garmin Edge 705 run (TCX, and the GPX made from it): the device measured 18 990.30 m over two laps.
    /// A 45 m/s spike is rejected; the 8 h between the laps and the pause marked inside the first are pauses. The
    /// file calls it "Biking": imported as that, it has those three segments. As a run (limit 12 m/s) the receiver's
    /// error burst at 07:47 is five implausible jumps in a row, which the tracker then believes without distance
    /// across them: one segment more.
    @Test(arguments: [
        ("fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx", Activity.ride, 3),
        ("fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx", .run, 4),
        ("gpx/sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx", .ride, 3),
        ("gpx/sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx", .run, 4)
    ])
    func edge705RunMatchesTheDevice(path: String, activity: Activity, segments: Int) throws {
        let tracked = try Self.track(path, activity: activity)
        let summary = tracked.summary
        #expect(abs(summary.distance - 18_990.30) <= 0.015 * 18_990.30, "\(summary.distance) m")
        #expect(tracked.points.contains { $0.rejection == .implausibleJump })
        if activity == .run {
            // The bursts of 8–26 m/s steps are within a ride's limit, not a run's.
            #expect(summary.maxSpeed < 7, "max speed \(summary.maxSpeed) m/s")
        }
        #expect(summary.segmentCount == segments)
        #expect(abs(summary.movingTime - 5_811.93) <= 0.02 * 5_811.93, "moving \(summary.movingTime) s")
    }

    /// A GPSies ride with irregular sampling and 22 gaps of 30 s or more: every gap is bridged, one segment, and
    /// the distance is the plain geodesic sum of the points (the ride never stops).
    @Test func sparseRideIsOneSegmentWithItsFullDistance() throws {
        let recording = try Self.recording("gpx/sportstracker__bike-tour-gpsies.gpx")
        let summary = try #require(RunImport.track(recording, name: "gpsies", activity: .ride)).summary
        let positions = recording.samples.compactMap(\.coordinate)
        let plain = zip(positions, positions.dropFirst()).reduce(0) { $0 + Geodesic.wgs84.distance($1.0, $1.1) }
        #expect(abs(summary.distance - plain) <= 0.005 * plain, "\(summary.distance) m vs \(plain) m")
        #expect(summary.segmentCount == 1)
        #expect(summary.movingTime >= 0.98 * summary.timerTime)
    }

    /// A hike logged every 9–14 s with long stops: nothing is lost to its sampling. Its three tracks are pauses,
    /// and silences over five minutes (stops of 12, 17 and 34 minutes) are pauses too; what stays out is the drift
    /// across them and slow creep at stops.
    @Test func hikeLoggedEveryElevenSecondsKeepsItsDistance() throws {
        let recording = try Self.recording("gpx/gpxpy__korita-zbevnica.gpx")
        let summary = try #require(RunImport.track(recording, name: "korita", activity: .hike)).summary
        var plain = 0.0
        for (a, b) in zip(recording.samples, recording.samples.dropFirst()) {
            guard let from = a.coordinate, let to = b.coordinate,
                !recording.pauses.contains(where: { $0.start == a.time })
            else { continue }
            plain += Geodesic.wgs84.distance(from, to)
        }
        #expect(summary.distance <= plain && summary.distance >= 0.95 * plain, "\(summary.distance) m vs \(plain) m")
        #expect(summary.segmentCount == 5)
    }
}
