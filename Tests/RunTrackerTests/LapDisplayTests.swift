import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// The laps a run shows (`GET /v1/runs/{id}`, `runs show`, the run page) are the device's: imported from every shared
/// FIT and TCX file, they equal the lap messages Garmin's own SDK reads (or the TCX `Lap`s), with pace and trigger.
@Suite("Laps shown with a run equal the device's", .serialized)
struct LapDisplayTests {
    /// Imports every activity of `file` and returns each run's detail.
    static func imported(_ url: URL, into fixture: HistoryFixture) async throws -> [RunDetail] {
        guard let activities = try? ActivityFileReader.read(contentsOf: url) else { return [] }
        var details: [RunDetail] = []
        for (index, activity) in activities.enumerated() {
            let id = "\(url.lastPathComponent)-\(index)"
            guard try RunStore(store: fixture.store).importRun(activity, id: id, name: id) != nil else { continue }
            details.append(try await fixture.history.detail(id: id))
        }
        return details
    }

    @Test(
        "every readable shared FIT file: the run's laps are Garmin's lap messages (distance, timer, pace, heart rate, trigger)",
        arguments: try TestData.files(in: "fit", suffix: ".fit"))
    func fitLaps(url: URL) async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let details = try await Self.imported(url, into: fixture)
        guard !details.isEmpty else { return }  // a damaged file: nothing imported
        let ours = details.flatMap(\.laps).sorted { $0.startedAt < $1.startedAt }
        let theirs = try await FITCheck.run(Array(try Data(contentsOf: url))).laps
            .sorted { ($0["start_time"] as? Int ?? 0) < ($1["start_time"] as? Int ?? 0) }
        #expect(ours.count == theirs.count, "\(url.lastPathComponent)")
        for (lap, message) in zip(ours, theirs) {
            let distance = message["total_distance"] as? Double
            let timer = message["total_timer_time"] as? Double
            #expect(abs((lap.distanceM ?? -1) - (distance ?? -1)) < 0.005)
            #expect(abs((lap.timerS ?? -1) - (timer ?? -1)) < 0.0005)
            if let distance, let timer, distance > 0 {
                #expect(abs((lap.paceSPerKm ?? 0) - timer / (distance / 1000)) < 1e-6)
            } else {
                #expect(lap.paceSPerKm == nil)
            }
            let heartRate = (message["avg_heart_rate"] as? Int).map(Double.init)
            #expect(lap.avgHeartRateBpm == heartRate, "lap \(lap.index) heart rate")
            let trigger = message["lap_trigger"] as? String
            #expect(
                trigger.map { DeviceLapTestNames.garmin(lap.trigger).contains($0) } ?? (lap.trigger == nil),
                "\(String(describing: trigger)) vs \(String(describing: lap.trigger))")
        }
    }

    @Test("TCX: the Edge 705's two manual laps and the Forerunner 405's five distance laps and a manual one")
    func tcxLaps() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let edge = try #require(
            try await Self.imported(
                TestData.url("fit/sportstracker__Edge705-Running-Heartrate-2Laps.tcx"), into: fixture
            ).first)
        #expect(edge.laps.map(\.trigger) == ["manual", "manual"])
        #expect(abs(edge.laps.compactMap(\.distanceM).reduce(0, +) - 18_990.30) < 0.01)
        #expect(abs(edge.laps.compactMap(\.timerS).reduce(0, +) - 5_811.93) < 0.01)
        #expect(edge.laps.allSatisfy { $0.avgHeartRateBpm != nil })
        let forerunner = try #require(
            try await Self.imported(
                TestData.url("fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx"), into: fixture
            ).first)
        #expect(forerunner.laps.map(\.trigger) == Array(repeating: "distance", count: 5) + ["manual"])
        #expect(abs(forerunner.laps.compactMap(\.distanceM).reduce(0, +) - 5_598.58) < 0.01)
        #expect(abs(forerunner.laps.compactMap(\.timerS).reduce(0, +) - 1_552.90) < 0.01)
    }

    @Test("GET /v1/runs/{id} and the run page show the laps: number, distance, time, pace, heart rate, trigger")
    func pageAndJSON() async throws {
        let recording = try #require(
            try ActivityFileReader.read(contentsOf: TestData.url("fit/fitparse__2013-02-06-12-11-14.fit")).first)
        try await TrackerServer.with(filling: { fixture in
            _ = try RunStore(store: fixture.store).importRun(recording, id: "fr110", name: "FR110")
        }) { server in
            let json = try await server.call("GET", "/v1/runs/fr110").json()
            let laps = try #require(json["laps"] as? [[String: Any]])
            #expect(laps.count == recording.laps.count && laps.count > 1)
            #expect(
                Set(laps[0].keys) == [
                    "index", "started_at", "start_offset_s", "distance_m", "timer_s", "pace_s_per_km",
                    "avg_heart_rate_bpm", "max_heart_rate_bpm", "trigger"
                ])
            #expect(laps.map { $0["index"] as? Int } == Array(1...laps.count))
            #expect(json["gear"] is NSNull)
            let html = try await server.call("GET", "/runs/fr110").text
            #expect(html.contains("id=\"laps-title\""))
            let first = RunLap.list(recording.laps, runStart: recording.laps[0].start)[0]
                .texts(activity: .run, units: .metric)
            #expect(html.contains(first.distance) && html.contains(first.pace) && html.contains(first.heartRate))
            #expect(html.contains("auto (distance)") && html.contains("lap button"))
        }
    }
}

/// Our lap triggers as Garmin's SDK names the FIT values.
enum DeviceLapTestNames {
    static func garmin(_ trigger: String?) -> [String] {
        switch trigger {
        case nil: return []
        case "position": return ["position_start", "position_lap", "position_waypoint", "position_marked"]
        case "other": return ["fitness_equipment"]
        case let trigger?: return [trigger]
        }
    }
}
