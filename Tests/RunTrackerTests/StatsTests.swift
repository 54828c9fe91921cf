import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

@Suite("Stats: totals per week, month and year in the configured time zone, with the trend")
struct StatsTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    /// A run of 2024 in Berlin: `week` (0 = the ISO week from Monday 2024-01-01), `weekday` (0 = Monday), local
    /// time and UTC offset written out by hand (CEST, +02:00, from 31 March 03:00 to 27 October 03:00).
    struct Planned {
        var id: String
        var week: Int
        var weekday: Int
        var time: String
        var activity: Activity = .run

        var localDay: Int { ISO8601.daysSinceEpoch(year: 2024, month: 1, day: 1) + week * 7 + weekday }
        var start: Date {
            let date = String(ISO8601.string(from: Date(timeIntervalSince1970: Double(localDay) * 86_400)).prefix(10))
            let summer =
                date > "2024-03-31" && date < "2024-10-27"
                || date == "2024-03-31" && time >= "03:00" || date == "2024-10-27" && time < "03:00"
            return ISO8601.date(from: "\(date)T\(time):00\(summer ? "+02:00" : "+01:00")") ?? .distantPast
        }
    }

    /// Three runs a week through 2024 (Monday 06:30, Thursday 18:00, Sunday 23:30), none in week 20, runs at 00:30
    /// on the Mondays after both daylight-saving changes, and a ride in some weeks; runs get longer week by week.
    static let plan: [Planned] = {
        var plan: [Planned] = []
        for week in 0..<52 where week != 19 {
            plan.append(Planned(id: "w\(week)-mon", week: week, weekday: 0, time: "06:30"))
            plan.append(Planned(id: "w\(week)-thu", week: week, weekday: 3, time: "18:00"))
            plan.append(Planned(id: "w\(week)-sun", week: week, weekday: 6, time: "23:30"))
            if week % 10 == 5 {
                plan.append(Planned(id: "w\(week)-ride", week: week, weekday: 5, time: "10:00", activity: .ride))
            }
        }
        plan.append(Planned(id: "after-spring-change", week: 13, weekday: 0, time: "00:30"))
        plan.append(Planned(id: "after-autumn-change", week: 43, weekday: 0, time: "00:30"))
        return plan
    }()

    static func fixture() throws -> HistoryFixture {
        let fixture = try HistoryFixture()
        for (index, planned) in plan.enumerated() {
            let run = SyntheticRun(
                id: planned.id, name: planned.id, activity: planned.activity, startedAt: planned.start,
                origin: Fixtures.origin, duration: 150 + 3 * planned.week, paceSecondsPerKilometre: 330,
                seed: UInt64(index + 1))
            try fixture.insert(run)
        }
        return fixture
    }

    static func report(
        _ fixture: HistoryFixture, by period: StatsPeriod = .week, from: String? = "2024-01-01",
        to: String? = "2024-12-29", activity: Activity? = nil
    ) async throws -> RunStatsReport {
        let filter = RunFilter(
            from: try from.map {
                try RunListQuery.parseBound($0, field: "from", isUpperBound: false, timeZone: berlin)
            },
            to: try to.map { try RunListQuery.parseBound($0, field: "to", isUpperBound: true, timeZone: berlin) },
            activity: activity)
        return try await fixture.store.database.read { db in
            try RunStatsReport.make(by: period, filter: filter, timeZone: berlin, now: Fixtures.day0, in: db)
        }
    }

    @Test(
        "a year by ISO week in Berlin: every week listed (the empty one too), each run in its local week across both daylight-saving changes"
    )
    func weeks() async throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let stored = try await fixture.store.database.read { db in
            Dictionary(uniqueKeysWithValues: try RunSummary.fetchAll(db).map { ($0.id, $0) })
        }
        let report = try await Self.report(fixture)
        #expect(report.periods.count == 52 && report.timeZone == "Europe/Berlin")
        for (week, period) in report.periods.enumerated() {
            let planned = Self.plan.filter { $0.week == week }
            #expect(period.totals.runs == planned.count, "week \(week + 1)")
            let distance = planned.compactMap { stored[$0.id]?.distance }.reduce(0, +)
            #expect(abs(period.totals.distance - distance) < 1e-6, "week \(week + 1)")
            let longest = planned.max { (stored[$0.id]?.distance ?? 0) < (stored[$1.id]?.distance ?? 0) }
            #expect(period.totals.longestRunID == longest?.id)
            #expect(period.label == "2024-W\(week < 9 ? "0" : "")\(week + 1)")
        }
        let empty = report.periods[19]
        #expect(
            empty.totals.runs == 0 && empty.totals.distance == 0 && empty.totals.pace == nil
                && empty.totals.longestRunID == nil)
        // Week 13 ends at the spring change (167 hours); week 43 holds the autumn one (169 hours).
        #expect(report.periods[12].end.timeIntervalSince(report.periods[12].start) == 167 * 3600)
        #expect(report.periods[42].end.timeIntervalSince(report.periods[42].start) == 169 * 3600)
        #expect(report.periods[13].start == ISO8601.date(from: "2024-04-01T00:00:00+02:00"))
        #expect(report.periods[44].start == ISO8601.date(from: "2024-11-04T00:00:00+01:00"))
        // The runs at 00:30 after each change are in the week that starts then, not in the one before.
        #expect(
            report.periods[13].totals.runs == 4 && report.periods[43].totals.runs == 4
                && report.periods[42].totals.runs == 3)

        let pace = try #require(report.periods[0].totals.pace)
        #expect(abs(pace - report.periods[0].totals.movingTime / report.periods[0].totals.distance * 1000) < 1e-9)
    }

    @Test("the totals add up to the runs listed for the same from, to and activity")
    func totalsMatchTheList() async throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        for (from, to, activity) in [
            ("2024-01-01", "2024-12-29", nil), ("2024-03-20", "2024-04-02", Activity.run),
            ("2024-06-01", "2024-06-30", .ride), ("2024-10-27", "2024-10-28", nil)
        ] {
            let report = try await Self.report(fixture, from: from, to: to, activity: activity)
            let query = RunListQuery(
                limit: 200,
                from: try RunListQuery.parseBound(from, field: "from", isUpperBound: false, timeZone: Self.berlin),
                to: try RunListQuery.parseBound(to, field: "to", isUpperBound: true, timeZone: Self.berlin),
                activity: activity)
            var listed: [RunSummary] = []
            var page = try await fixture.history.list(query)
            listed += page.runs.map(\.run)
            while let next = page.nextCursor {
                var following = query
                following.cursor = try RunCursor(token: next)
                page = try await fixture.history.list(following)
                listed += page.runs.map(\.run)
            }
            #expect(report.totals.runs == listed.count, "\(from)…\(to) \(activity?.rawValue ?? "all")")
            #expect(report.periods.map(\.totals.runs).reduce(0, +) == listed.count)
            #expect(abs(report.totals.distance - listed.map(\.distance).reduce(0, +)) < 1e-6)
            #expect(abs(report.totals.movingTime - listed.map(\.movingTime).reduce(0, +)) < 1e-6)
            #expect(abs(report.totals.ascent - listed.map(\.ascent).reduce(0, +)) < 1e-6)
        }
        // The Sunday evening of 27 October and the Monday night after it fall in different weeks.
        let edge = try await Self.report(fixture, from: "2024-10-27", to: "2024-10-28")
        #expect(edge.periods.map(\.totals.runs) == [1, 2])
    }

    @Test("months and years, the trend line, and its nulls with fewer than two periods")
    func monthsYearsAndTrend() async throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        let months = try await Self.report(fixture, by: .month)
        #expect(months.periods.map(\.label) == (1...12).map { "2024-\($0 < 10 ? "0" : "")\($0)" })
        #expect(
            months.periods[2].totals.runs
                == Self.plan.filter {
                    $0.start >= ISO8601.date(from: "2024-03-01T00:00:00+01:00")!
                        && $0.start < ISO8601.date(from: "2024-04-01T00:00:00+02:00")!
                }.count)
        let weeks = try await Self.report(fixture, activity: .run)
        // The runs get longer every week: the slope is the least-squares line through the weekly distances.
        let distances = weeks.periods.map(\.totals.distance)
        let n = Double(distances.count), meanX = (n - 1) / 2, meanY = distances.reduce(0, +) / n
        let slope =
            distances.enumerated().map { (Double($0.offset) - meanX) * ($0.element - meanY) }.reduce(0, +)
            / distances.indices.map { (Double($0) - meanX) * (Double($0) - meanX) }.reduce(0, +)
        #expect(abs((weeks.trend.distanceSlope ?? 0) - slope) < 1e-6 && slope > 0)
        #expect(weeks.trend.paceSlope != nil && weeks.trend.pace.periods == 51)
        let json = try #require(
            try JSONSerialization.jsonObject(with: MeridianJSON.makeEncoder().encode(weeks.trend)) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "periods", "distance_slope_m_per_period", "distance_first_m", "distance_last_m", "pace_periods",
                "pace_slope_s_per_km_per_period", "pace_first_s_per_km", "pace_last_s_per_km"
            ])

        let year = try await Self.report(fixture, by: .year)
        #expect(year.periods.count == 1 && year.periods[0].label == "2024")
        #expect(year.trend.distanceSlope == nil && year.trend.paceSlope == nil && year.trend.distance.first == nil)
        let yearJSON = try #require(
            try JSONSerialization.jsonObject(with: MeridianJSON.makeEncoder().encode(year)) as? [String: Any])
        #expect((yearJSON["trend"] as? [String: Any])?["distance_slope_m_per_period"] is NSNull)
        let period = try #require((yearJSON["periods"] as? [[String: Any]])?.first)
        #expect(
            Set(period.keys) == [
                "start", "end", "label", "runs", "distance_m", "moving_s", "ascent_m", "avg_pace_s_per_km",
                "avg_speed_mps", "longest_run_id"
            ])
    }

    @Test("without from the range starts at the first run; without runs there are no periods; bad input is refused")
    func rangesAndBadInput() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let empty = try await Self.report(fixture, from: nil, to: nil)
        #expect(empty.periods.isEmpty && empty.totals.runs == 0 && empty.trend.distanceSlope == nil)
        try fixture.insert(Fixtures.run("one", day: -10))
        let open = try await Self.report(fixture, from: nil, to: nil)
        #expect(open.periods.count == 3 && open.totals.runs == 1, "from the run's week to the week of now (day0)")

        #expect(
            throws: ProgressError.invalid(
                field: "--by", message: "'fortnight' is not a period; use week, month or year")
        ) {
            try StatsPeriod.parse("fortnight", field: "--by")
        }
        await #expect(throws: ProgressError.self) {
            try await Self.report(fixture, from: "2024-05-02", to: "2024-05-01")
        }
        await #expect(throws: ProgressError.self) {
            try await Self.report(fixture, from: "1900-01-01", to: "2024-05-01")
        }
    }
}
