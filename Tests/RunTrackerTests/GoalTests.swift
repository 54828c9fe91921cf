import Foundation
import GRDB
import Logging
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// Goals: periods in the runner's time zone across week, month and daylight-saving boundaries, the progress in
/// words, `goal.reached` once per goal and period, and the routes.
@Suite("Goals")
struct GoalTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt

    static func date(_ text: String) throws -> Date { try #require(ISO8601.date(from: text)) }

    /// A 15-minute run at 5:00 /km (3 km, 900 s moving) starting at `start`.
    static func run(_ id: String, at start: String, activity: Activity = .run) throws -> SyntheticRun {
        SyntheticRun(
            id: id, name: "Run \(id)", activity: activity, startedAt: try date(start), origin: Fixtures.origin,
            duration: 900, paceSecondsPerKilometre: 300, pauses: [], seed: 3)
    }

    static func goal(_ period: StatsPeriod, km: Double? = nil, hours: Double? = nil, activity: Activity = .run)
        throws -> GoalRequest
    {
        try GoalRequest(
            activity: activity, period: period, distance: km.map { $0 * 1000 }, time: hours.map { $0 * 3600 },
            names: ("distance", "time"))
    }

    @Test("weeks are ISO weeks of local days: a run at 23:30 on the Sunday of a DST change counts in that week")
    func weekAcrossDaylightSaving() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        // 2024-03-31 is the Sunday clocks go forward in Berlin: its week is 167 hours long.
        try fixture.insert(Self.run("sunday-late", at: "2024-03-31T21:30:00Z"))  // 23:30 CEST, Sunday
        try fixture.insert(Self.run("monday-early", at: "2024-03-31T22:30:00Z"))  // 00:30 CEST, Monday
        try fixture.insert(Self.run("monday-before", at: "2024-03-24T22:30:00Z"))  // 23:30 CET, Sunday 24th
        let database = fixture.store.database
        _ = try await database.write { db in try GoalBook.add(Self.goal(.week, km: 5), now: .distantPast, in: db) }
        let saturday = try Self.date("2024-03-30T11:00:00Z")
        let progress = try #require(
            try await database.read { db in
                try GoalBook.progress(now: saturday, timeZone: Self.berlin, units: .metric, in: db)
            }.first)
        #expect(progress.period.label == "2024-W13")
        let (start, end) = (try Self.date("2024-03-24T23:00:00Z"), try Self.date("2024-03-31T22:00:00Z"))
        #expect(progress.period.start == start && progress.period.end == end)
        #expect(progress.period.end.timeIntervalSince(progress.period.start) == 167 * 3600)
        #expect(abs(progress.done - 3000) < 30, "only the Sunday-night run: \(progress.done)")
        #expect(progress.daysLeft == 2, "Saturday and Sunday")
        #expect(abs((progress.perDayToGo ?? 0) - progress.remaining / 2) < 1e-9)
        let text = progress.text
        #expect(text.hasPrefix("3.0 of 5.0 km, 2 days left, 1.0 km a day to go"), "\(text)")

        // The Monday run opens week 14; late on its Sunday one day is left.
        let nextSunday = try Self.date("2024-04-07T21:00:00Z")
        let next = try #require(
            try await database.read { db in
                try GoalBook.progress(now: nextSunday, timeZone: Self.berlin, units: .metric, in: db)
            }.first)
        #expect(next.period.label == "2024-W14" && abs(next.done - 3000) < 30 && next.daysLeft == 1)
        #expect(next.period.end.timeIntervalSince(next.period.start) == 168 * 3600)
        // The same run in UTC falls in the other week.
        let utc = try await database.read { db in
            try GoalBook.progress(now: saturday, timeZone: .gmt, units: .metric, in: db)
        }
        #expect(utc.first.map { abs($0.done - 6000) < 60 } == true, "in UTC both Sunday runs are in week 13")
    }

    @Test("months end at local midnight: 23:30 on 31 October (after clocks went back) is October, 00:30 is November")
    func monthAcrossDaylightSaving() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Self.run("october-last", at: "2024-10-31T22:30:00Z"))  // 23:30 CET
        try fixture.insert(Self.run("november-first", at: "2024-10-31T23:30:00Z"))  // 00:30 CET, 1 November
        try fixture.insert(Self.run("ride", at: "2024-10-20T10:00:00Z", activity: .ride))
        let database = fixture.store.database
        _ = try await database.write { db in
            try GoalBook.add(Self.goal(.month, hours: 1), now: .distantPast, in: db)
            try GoalBook.add(Self.goal(.month, km: 100, activity: .ride), now: .distantPast, in: db)
        }
        let october = try Self.date("2024-10-27T12:00:00Z")
        let goals = try await database.read { db in
            try GoalBook.progress(now: october, timeZone: Self.berlin, units: .metric, in: db)
        }
        #expect(goals.count == 2)
        let time = try #require(goals.first)
        #expect(time.period.label == "2024-10" && time.unit == "s")
        #expect(time.period.end.timeIntervalSince(time.period.start) == 31 * 86_400 + 3600, "one hour longer")
        #expect(abs(time.done - 900) < 5 && time.daysLeft == 5, "27 to 31 October")
        #expect(time.text.hasPrefix("15:00 of 1:00:00, 5 days left, 9:00 a day to go"), "\(time.text)")
        let ride = goals[1]
        #expect(abs(ride.done - 3000) < 30 && ride.text.hasPrefix("3.0 of 100 km, 5 days left"), "\(ride.text)")
        let november = try await database.read { db in
            try GoalBook.progress(
                now: try Self.date("2024-11-01T00:00:00Z"), timeZone: Self.berlin, units: .imperial, in: db)
        }
        let first = try #require(november.first)
        #expect(first.period.label == "2024-11" && abs(first.done - 900) < 5 && first.daysLeft == 30)
        #expect(november[1].text.hasPrefix("0.0 of 62.1 mi, 30 days left, 2.1 mi a day to go"), "\(november[1].text)")
    }

    @Test(
        "goal.reached once per goal and period, by the run that brings the period to its target; not for periods before the goal"
    )
    func reachedOncePerPeriod() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let database = fixture.store.database
        let created = try Self.date("2024-05-01T00:00:00Z")
        let goal = try await database.write { db in try GoalBook.add(Self.goal(.week, km: 5), now: created, in: db) }
        func save(_ id: String, at start: String, activity: Activity = .run) async throws -> [GoalReached] {
            try fixture.insert(Self.run(id, at: start, activity: activity))
            return try await database.write { db in
                try GoalBook.reached(
                    byRun: id, now: try Self.date("2024-06-01T00:00:00Z"), timeZone: Self.berlin, units: .metric,
                    in: db)
            }
        }
        // The week before the goal was set: 6 km, never reached.
        let old = try await save("old-1", at: "2024-04-23T08:00:00Z") + save("old-2", at: "2024-04-24T08:00:00Z")
        #expect(old.isEmpty)
        // The week of 29 April, which ends after the goal was set: 3 km, then 6.
        let first = try await save("a", at: "2024-04-30T08:00:00Z")
        let ride = try await save("ride", at: "2024-05-01T08:00:00Z", activity: .ride)
        #expect(first.isEmpty && ride.isEmpty, "3 km, and a ride does not count")
        let reached = try await save("b", at: "2024-05-02T08:00:00Z")
        #expect(reached.map(\.goal.id) == [goal.id] && reached.first?.runId == "b")
        #expect(reached.first?.progress.period.label == "2024-W18" && reached.first?.progress.reached == true)
        let again = try await save("c", at: "2024-05-03T08:00:00Z")
        #expect(again.isEmpty, "once per period")
        // The next week starts from nothing.
        let (monday, tuesday) = (
            try await save("d", at: "2024-05-06T08:00:00Z"), try await save("e", at: "2024-05-07T08:00:00Z")
        )
        #expect(monday.isEmpty && tuesday.count == 1)
        let rows = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT run_id FROM goal_reached ORDER BY period_start").map { $0[0] as String }
        }
        #expect(rows == ["b", "e"])
        // Removing the goal removes what it reached.
        try await database.write { db in try GoalBook.remove(id: goal.id, in: db) }
        let left = try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM goal_reached") }
        #expect(left == 0)
        await #expect(throws: GoalError.notFound(id: String(goal.id))) {
            try await database.write { db in try GoalBook.remove(id: goal.id, in: db) }
        }
    }

    @Test("a live run stopped and saved reaches a goal: goal.reached follows its run.state event")
    func liveRunReachesAGoal() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let events = EventBus()
        let controller = try DurabilityStoreTests.controller(folder.store.path, clock: clock, events: events)
        let store = try Store.open(path: folder.store.path)
        _ = try await store.database.write { db in
            try GoalBook.add(Self.goal(.week, km: 0.3), now: .distantPast, in: db)
        }
        let watch = GoalWatch(
            store: store, events: events, timeZone: Self.berlin, units: .metric, logger: Logger(label: "test"),
            clock: { clock.now() })
        let reached = events.subscribe(names: ["goal.reached"])
        let following = Task { await watch.followLiveRuns() }
        defer { following.cancel() }
        try await ManagedProcess.waitUntil(timeout: 10, "the watch follows run.state") { events.subscriberCount == 2 }
        let run = try await controller.start(name: "Lunch run", activity: .run)
        await StopGearTests.runTwoMinutes(controller, clock: clock)
        let stopped = try await controller.stop(id: run.run.id)
        #expect(stopped.saved, "\(stopped.message)")
        let published = await EventCollection.first(1, of: reached, within: 10)
        let payload = try #require(
            published.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.json.utf8)) as? [String: Any] })
        #expect(payload["run_id"] as? String == run.run.id)
        #expect(((payload["progress"] as? [String: Any])?["done"] as? Double ?? 0) > 300)
    }

    @Test(
        "POST, GET and DELETE /v1/goals; an import that reaches a goal sends goal.reached on /v1/events; pages show progress"
    )
    func routesAndEvents() async throws {
        try await TrackerServer.with(
            yaml: "time_zone: Europe/Berlin\nconsumers:\n  - type: run-tracker\n", filling: { _ in }
        ) { server in
            let created = try await server.call("POST", "/v1/goals", #"{"period": "week", "distance_m": 4000}"#)
            #expect(created.status == 201, "\(created.text)")
            let goal = try created.json()
            #expect(goal["activity"] as? String == "run" && goal["distance_m"] as? Double == 4000)
            #expect(goal["time_s"] is NSNull)
            let id = try #require(goal["id"] as? Int)
            for bad in [
                #"{"period": "fortnight", "distance_m": 4000}"#, #"{"period": "week"}"#,
                #"{"period": "week", "distance_m": 1, "time_s": 1}"#, #"{"period": "week", "distance_m": -5}"#,
                #"{"period": "week", "distance_m": 5, "activity": "swim"}"#, #"{"period": "week", "km": 5}"#
            ] {
                let answer = try await server.call("POST", "/v1/goals", bad)
                #expect(answer.status == 400, "\(bad): \(answer.text)")
            }

            let before = try await server.call("GET", "/v1/goals")
            let open = try #require((try before.json()["goals"] as? [[String: Any]])?.first)
            #expect(open["reached_at"] is NSNull && open["per_day_to_go"] is Double, "every key, null when absent")

            // An import of a run today (3 km) does not reach 4 km; the second does, once.
            let events = server.server.host.events.subscribe(names: ["goal.reached"])
            let now = Date()
            for (index, id) in ["one", "two"].enumerated() {
                let run = SyntheticRun(
                    id: id, name: "Run \(id)", startedAt: now.addingTimeInterval(Double(index - 2) * 1200),
                    origin: Fixtures.origin, duration: 900, paceSecondsPerKilometre: 300, pauses: [], seed: 5)
                let prepared = try #require(
                    try RunStore.prepareImport(run.recording, id: id, name: "Run \(id)", activity: .run))
                let gpx = GPXExport.document(run: prepared.summary, points: prepared.points)
                let answer = try await server.client.request("POST", "/v1/runs/import", body: Data(gpx.utf8))
                #expect(answer.status == 201, "\(answer.text)")
            }
            let reached = await EventCollection.first(1, of: events, within: 10)
            let payload = try #require(
                reached.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.json.utf8)) as? [String: Any] })
            #expect((payload["goal"] as? [String: Any])?["id"] as? Int == id)
            let progress = try #require(payload["progress"] as? [String: Any])
            #expect(progress["reached"] as? Bool == true && (progress["done"] as? Double ?? 0) > 4000)

            let list = try await server.call("GET", "/v1/goals")
            let goals = try #require(try list.json()["goals"] as? [[String: Any]])
            #expect(
                goals.count == 1 && goals.first?["reached"] as? Bool == true && goals.first?["reached_at"] is String)
            #expect((goals.first?["text"] as? String)?.contains("of 4.0 km, reached") == true)
            for path in ["/", "/records"] {
                let page = try await server.call("GET", path)
                #expect(page.status == 200 && page.text.contains("4.0 km a week (run)"), "\(path)")
                #expect(page.text.contains("of 4.0 km, reached"), "\(path)")
            }

            let removed = try await server.call("DELETE", "/v1/goals/\(id)")
            #expect(removed.status == 204)
            let gone = try await server.call("DELETE", "/v1/goals/\(id)")
            #expect(gone.status == 404 && gone.errorCode == "goal_not_found")
            let named = try await server.call("DELETE", "/v1/goals/home")
            #expect(named.errorCode == "goal_not_found")
            let empty = try await server.call("GET", "/")
            #expect(!empty.text.contains("goals-title"), "no goals, no card")
        }
    }
}
