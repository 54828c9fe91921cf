import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// The records page's week and month charts open at the latest data and move to earlier and later periods
/// (issue 29 item 6).
@Suite("Records charts reach back")
struct RecordsReachBackTests {
    @Test("a history that ended years ago opens at its latest run; an explicit end shows its own periods")
    func totals() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Fixtures.run("old", day: 0, duration: 900))
        let now = Fixtures.day0.addingTimeInterval(3 * 365 * 86_400)
        let weeks = try await RunPeriodTotals.totals(in: fixture.store, by: .week, count: 12, timeZone: .gmt, now: now)
        #expect(weeks.count == 12 && weeks.last?.totals.runs == 1, "the last week shown is the latest run's")
        let months = try await RunPeriodTotals.totals(
            in: fixture.store, by: .month, count: 12, timeZone: .gmt, now: now)
        #expect(months.count == 12 && months.last?.totals.runs == 1)
        // A recent run keeps the charts at the current period.
        let recent = try await RunPeriodTotals.totals(
            in: fixture.store, by: .week, count: 12, timeZone: .gmt,
            now: Fixtures.day0.addingTimeInterval(20 * 86_400))
        #expect(recent.map(\.totals.runs).reduce(0, +) == 1 && recent.last?.totals.runs == 0)
        // Twelve weeks earlier than the opening ones: nothing; the later link comes back to the run.
        let moves = RunPeriodTotals.neighbours(of: weeks, by: .week, timeZone: .gmt, now: now)
        let earlier = try await RunPeriodTotals.totals(
            in: fixture.store, by: .week, count: 12, timeZone: .gmt,
            end: try #require(moves.earlier), now: now)
        #expect(earlier.map(\.totals.runs).reduce(0, +) == 0 && earlier.last?.end == weeks.first?.start)
        let back = RunPeriodTotals.neighbours(of: earlier, by: .week, timeZone: .gmt, now: now)
        let again = try await RunPeriodTotals.totals(
            in: fixture.store, by: .week, count: 12, timeZone: .gmt,
            end: try #require(back.later), now: now)
        #expect(again.map(\.start) == weeks.map(\.start))
        let current = try await RunPeriodTotals.totals(
            in: fixture.store, by: .week, count: 12, timeZone: .gmt, end: now, now: now)
        #expect(
            RunPeriodTotals.neighbours(of: current, by: .week, timeZone: .gmt, now: now).later == nil,
            "nothing after the current week")
    }

    @Test("/records of an old history: both charts show its runs, with links to earlier periods; a bad date is a 400")
    func page() async throws {
        try await TrackerServer.with([Fixtures.run("old", day: 0, duration: 900)]) { server in
            let page = try await server.client.request("GET", "/records")
            #expect(page.status == 200)
            #expect(!page.text.contains("Nothing recorded in this time"), "opens at the latest data")
            let earlier = try #require(
                page.text.range(
                    of: #"href="(/records\?weeks=[0-9-]+&amp;months=[0-9-]+)#weeks">‹ Earlier weeks"#,
                    options: .regularExpression))
            let href = String(page.text[earlier]).dropFirst(6).prefix { $0 != "#" }.replacingOccurrences(
                of: "&amp;", with: "&")
            let moved = try await server.client.request("GET", href)
            #expect(moved.status == 200)
            #expect(
                moved.text.components(separatedBy: "Nothing recorded in this time").count - 1 == 1,
                "the week chart moved, the month chart stayed")
            #expect(moved.text.contains("Later weeks ›"))
            #expect(try await server.client.request("GET", "/records?weeks=soon").status == 400)
        }
    }
}
