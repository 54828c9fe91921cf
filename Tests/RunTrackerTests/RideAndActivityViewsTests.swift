import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// Rides are shown in speeds on the pages, and the stats never mix activities into one pace or trend; without a
/// period the stats choose one that fits the range.
@Suite("Rides in speeds, activities kept apart")
struct RideAndActivityViewsTests {
    /// A 15 km ride at 30 km/h and a 5 km run.
    static let ride = Fixtures.run("ride", day: 0, activity: .ride, duration: 1800, pace: 120, seed: 11)
    static let run = Fixtures.run("run", day: 1, duration: 1500, pace: 300, seed: 12)

    @Test(
        "the records page gives a ride's records as speeds and a run's as paces; the ride's page has a speed legend and speed splits"
    )
    func pages() async throws {
        try await TrackerServer.with([Self.ride, Self.run]) { server in
            let records = try await server.client.request("GET", "/records").text
            let rows = records.components(separatedBy: "<tr>").filter {
                $0.contains("<th scope=\"row\">") && $0.contains("<strong>")
            }
            let rideRows = rows.filter { $0.contains("(ride)") }, runRows = rows.filter { !$0.contains("(ride)") }
            #expect(
                !rideRows.isEmpty && rideRows.allSatisfy { $0.contains(" km/h<") && !$0.contains("/km<") },
                "\(rideRows)")
            #expect(!runRows.isEmpty && runRows.allSatisfy { $0.contains(" /km<") }, "\(runRows)")
            let page = try await server.client.request("GET", "/runs/ride").text
            let legend = try #require(
                page.components(separatedBy: "<p class=\"legend\">").dropFirst().first?.components(separatedBy: "</p>")
                    .first)
            #expect(
                legend.hasPrefix("<span>Speed</span>") && legend.contains(" km/h<") && !legend.contains("/km<"),
                "\(legend)")
            #expect(
                page.contains("Speed (faster is higher)") && !page.contains("Pace (faster") && page.contains(">speed "),
                "the chart")
            let svg = try await server.client.request("GET", "/runs/ride/route.svg").text
            #expect(svg.contains(">speed</text>") && svg.contains(" km/h</text>"), "the picture's legend")
        }
    }

    @Test("the records page without records names where they come from: runs, rides and hikes")
    func emptyRecords() async throws {
        try await TrackerServer.with([]) { server in
            let page = try await server.client.request("GET", "/records").text
            #expect(
                page.contains("No records yet: they come from saved runs, rides and hikes.")
                    && !page.contains("activity “run”"))
        }
    }

    @Test("over runs of several activities pace, speed and the trend are null; a period of one activity keeps its pace")
    func mixedStats() async throws {
        let fixture = try StatsTests.fixture()
        defer { fixture.remove() }
        let mixed = try await StatsTests.report(fixture)
        #expect(mixed.activities == [.run, .ride])
        #expect(mixed.totals.pace == nil && mixed.totals.speed == nil && mixed.totals.distance > 0)
        #expect(mixed.trend.distanceSlope == nil && mixed.trend.paceSlope == nil)
        let rideWeek = try #require(mixed.periods.first { $0.label == "2024-W06" })
        #expect(rideWeek.totals.runs == 4 && rideWeek.totals.pace == nil, "three runs and a ride")
        #expect(mixed.periods[0].totals.pace != nil, "a week of runs only")
        let runs = try await StatsTests.report(fixture, activity: .run)
        #expect(runs.activities == [.run] && runs.totals.pace != nil && runs.trend.paceSlope != nil)
        let json = try #require(
            try JSONSerialization.jsonObject(with: MeridianJSON.makeEncoder().encode(mixed)) as? [String: Any])
        #expect(json["activities"] as? [String] == ["run", "ride"])
    }

    @Test("without a period: weeks up to 26 of them, then months up to 26, then years")
    func automaticPeriod() async throws {
        let fixture = try StatsTests.fixture()
        defer { fixture.remove() }
        func by(_ from: String, _ to: String) async throws -> (StatsPeriod, Int) {
            let filter = RunFilter(
                from: try RunListQuery.parseBound(
                    from, field: "from", isUpperBound: false, timeZone: StatsTests.berlin),
                to: try RunListQuery.parseBound(to, field: "to", isUpperBound: true, timeZone: StatsTests.berlin))
            let report = try await fixture.store.database.read { db in
                try RunStatsReport.make(
                    by: nil, filter: filter, timeZone: StatsTests.berlin, now: Fixtures.day0, in: db)
            }
            return (report.by, report.periods.count)
        }
        #expect(try await by("2024-01-01", "2024-06-30") == (.week, 26))
        #expect(try await by("2024-01-01", "2024-07-07") == (.month, 7))
        #expect(try await by("2022-01-01", "2024-02-29") == (.month, 26))
        #expect(try await by("2022-01-01", "2024-03-01") == (.year, 3))
        let open = try await fixture.store.database.read { db in
            try RunStatsReport.make(
                by: nil, filter: RunFilter(), timeZone: StatsTests.berlin,
                now: Fixtures.day0.addingTimeInterval(10 * 365 * 86_400), in: db)
        }
        #expect(open.by == .year && open.periods.first?.label == "2024", "the first run to now, ten years later")
    }

    @Test("GET /v1/runs/stats without by chooses the period and says which")
    func statsRoute() async throws {
        try await TrackerServer.with([Self.ride, Self.run]) { server in
            let json = try await server.client.request("GET", "/v1/runs/stats?from=2024-01-01&to=2024-03-31").json()
            #expect(json["by"] as? String == "week" && (json["periods"] as? [Any])?.count == 13, "\(json)")
        }
    }
}
