import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@Suite("Laps: the device's laps from FIT and TCX, written back in FIT", .serialized)
struct DeviceLapTests {
    /// Our trigger as Garmin's SDK names the FIT value (`nil` when the file has none).
    static func garminName(_ trigger: LapTrigger?) -> [String] {
        switch trigger {
        case nil: return []
        case .position?: return ["position_start", "position_lap", "position_waypoint", "position_marked"]
        case .sessionEnd?: return ["session_end"]
        case .other?: return ["fitness_equipment"]
        case let trigger?: return [trigger.rawValue]
        }
    }

    @Test(
        "every readable shared FIT file: our laps are the lap messages Garmin's SDK reads, trigger included",
        arguments: try TestData.files(in: "fit", suffix: ".fit"))
    func fitLapsEqualGarminSDK(url: URL) async throws {
        let bytes = try Data(contentsOf: url)
        guard let activities = try? ActivityFileReader.read(bytes, file: url.lastPathComponent) else { return }
        let ours = activities.flatMap(\.laps).sorted { $0.start < $1.start }
        let check = try await FITCheck.run(Array(bytes))
        let theirs = check.laps.sorted { ($0["start_time"] as? Int ?? 0) < ($1["start_time"] as? Int ?? 0) }
        #expect(ours.count == theirs.count)
        for (lap, message) in zip(ours, theirs) {
            #expect(
                lap.distance.map { abs($0 - (message["total_distance"] as? Double ?? -1)) < 0.005 }
                    ?? (message["total_distance"] == nil))
            #expect(
                lap.timerTime.map { abs($0 - (message["total_timer_time"] as? Double ?? -1)) < 0.0005 }
                    ?? (message["total_timer_time"] == nil))
            let name = message["lap_trigger"] as? String
            #expect(
                name.map { Self.garminName(lap.trigger).contains($0) } ?? (lap.trigger == nil),
                "\(String(describing: name)) vs \(String(describing: lap.trigger))")
        }
    }

    @Test("TCX laps: the Edge 705's two manual laps and the Forerunner 405's five distance laps and a manual one")
    func tcxLaps() throws {
        let edge = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx")
            ).first)
        #expect(edge.laps.map(\.trigger) == [.manual, .manual])
        #expect(abs(edge.laps.compactMap(\.distance).reduce(0, +) - 18_990.30) < 0.01)
        let forerunner = try #require(
            try ActivityFileReader.read(
                contentsOf: TestData.url("fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx")
            ).first)
        #expect(forerunner.laps.count == 6)
        #expect(
            forerunner.laps.filter { $0.trigger == .distance }.count == 5
                && forerunner.laps.filter { $0.trigger == .manual }.count == 1)
        #expect(abs(forerunner.laps.compactMap(\.timerTime).reduce(0, +) - 1_552.90) < 0.01)
    }

    @Test("the Edge 500 ride's manual laps survive a FIT export and Garmin's SDK reads them as written")
    func lapsWrittenBack() async throws {
        let ride = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("fit/fitparse__garmin-edge-500-activity.fit")).first)
        let bytes = FITEncoder.encode(ride)
        let back = try #require(try ActivityFileReader.read(Data(bytes), file: "ride.fit").first)
        #expect(back.laps == ride.laps)
        let check = try await FITCheck.run(bytes)
        #expect(
            check.laps.count == ride.laps.count && check.laps.allSatisfy { $0["lap_trigger"] as? String == "manual" })
    }
}
