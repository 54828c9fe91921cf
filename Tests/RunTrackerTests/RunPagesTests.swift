import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// The run tracker's pages over a real socket: history, one run, edits, delete and undo, records, and the
/// live card of the now page, on runs imported through the tracker into a real SpatiaLite file.
@Suite("Run pages over HTTP")
struct RunPagesTests {
    static func names(_ html: String) -> [String] {
        html.components(separatedBy: "<a class=\"name\" href=\"").dropFirst().compactMap { part in
            part.split(separator: ">", maxSplits: 1).last.map { String($0.prefix { $0 != "<" }) }
        }
    }

    static func form(_ server: TrackerServer, _ path: String, _ fields: String) async throws -> HTTPTestClient.Response
    {
        try await server.client.request(
            "POST", path, body: Data(fields.utf8), contentType: "application/x-www-form-urlencoded")
    }

    @Test("/runs: newest first, 25 a page with the cursor, searched by name, filtered by activity and day")
    func history() async throws {
        let runs = (0..<27).map { day in
            Fixtures.run(
                "r\(day)", day: day, name: day % 2 == 0 ? "Park \(day)" : "River \(day)",
                activity: day == 3 ? .ride : .run, duration: 120, seed: UInt64(day + 1))
        }
        try await TrackerServer.with(runs) { server in
            let first = try await server.client.request("GET", "/runs")
            #expect(first.status == 200)
            let names = Self.names(first.text)
            #expect(names.count == 25)
            #expect(names.first == "Park 26" && names.last == "Park 2")
            let next = try #require(
                first.text.components(separatedBy: "href=\"/runs?cursor=").dropFirst().first?.prefix { $0 != "\"" })
            let second = try await server.client.request("GET", "/runs?cursor=\(next)")
            #expect(Self.names(second.text) == ["River 1", "Park 0"])
            #expect(second.text.contains("Newest runs"))
            #expect(
                Self.names(try await server.client.request("GET", "/runs?q=river&to=2024-05-06").text) == [
                    "River 5", "River 3", "River 1"
                ])
            let rides = try await server.client.request("GET", "/runs?activity=ride")
            #expect(Self.names(rides.text) == ["River 3"])
            #expect(rides.text.contains("km/h"))  // rides by speed
            #expect(
                Self.names(try await server.client.request("GET", "/runs?from=2024-05-26").text) == [
                    "Park 26", "River 25"
                ])
            let bad = try await server.client.request("GET", "/runs?from=May%202")
            #expect(bad.status == 200 && bad.text.contains("From: &#39;May 2&#39; is not a day"))
        }
    }

    @Test("/runs/{id}: totals, the route for the map (at most 2,000 points), km marks, charts, splits and data quality")
    func runPage() async throws {
        let long = Fixtures.run(
            "long", day: 0, name: "Long <script>alert(1)</script>", duration: 10_000,
            pauses: [(offset: 4000, length: 60)])
        try await TrackerServer.with([long]) { server in
            let page = try await server.client.request("GET", "/runs/long")
            #expect(page.status == 200)
            let html = page.text
            #expect(html.contains("Long &lt;script&gt;alert(1)&lt;/script&gt;") && !html.contains("<script>alert"))
            let json = try #require(
                html.components(separatedBy: "<script type=\"application/json\" id=\"route-data\">").dropFirst().first?
                    .components(separatedBy: "</script>").first)
            let map = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let lines = try #require(map["lines"] as? [[String: Any]])
            let points = lines.reduce(0) { $0 + (($1["points"] as? [[Double]])?.count ?? 0) }
            let pieces = lines.count
            // Pieces share their end points; the route itself keeps at most 2,000 points.
            #expect(points - (pieces - 1) <= RunRouteMap.maxPoints)
            #expect(points > 500)
            #expect(lines.contains { $0["dashed"] as? Bool == true })  // across the pause
            let markers = try #require(map["markers"] as? [[String: Any]])
            let tracked = try #require(RunImport.track(long.recording, id: long.id, name: long.name, activity: .run))
            let distance = RunProgress(points: tracked.points, start: long.startedAt).totalDistance
            let marks = markers.filter { $0["kind"] as? String == "mark" }.count
            #expect(
                marks
                    == DistanceMarks(distances: RunProgress.usable(tracked.points).map { $0.distance ?? 0 }, unit: 1000)
                    .marks.count)
            #expect(
                markers.contains { $0["kind"] as? String == "start" }
                    && markers.contains { $0["kind"] as? String == "finish" })
            let splitRows = html.components(separatedBy: "<th scope=\"row\">").count - 1
            #expect(splitRows == Int(distance / 1000) + 1)
            #expect(
                html.contains("<figcaption>Elevation</figcaption>")
                    && html.contains("<figcaption>Pace (faster is higher)</figcaption>"))
            #expect(html.contains("Data quality") && html.contains("received"))
            #expect(html.contains("href=\"/v1/runs/long.gpx\"") && html.contains("href=\"/v1/runs/long.geojson\""))
            let picture = try await server.client.request("GET", "/runs/long/route.svg")
            #expect(picture.status == 200 && picture.headers["content-type"]?.hasPrefix("image/svg+xml") == true)
            #expect(picture.text.contains(">Start</text>"))

            let missing = try await server.client.request("GET", "/runs/nope")
            #expect(missing.status == 404 && missing.headers["content-type"]?.hasPrefix("text/html") == true)
        }
    }

    @Test("edit name and notes, delete with undo, from forms")
    func editDeleteRestore() async throws {
        try await TrackerServer.with([Fixtures.run("a.b", day: 0, name: "Before")]) { server in
            let path = "/runs/a%2Eb"
            let edited = try await Self.form(server, "\(path)/edit", "name=After+%3Cb%3E&notes=Windy")
            #expect(edited.status == 303 && edited.headers["location"] == "\(path)?saved=1")
            let page = try await server.client.request("GET", "\(path)?saved=1")
            #expect(
                page.text.contains("After &lt;b&gt;") && page.text.contains("Windy") && page.text.contains("Saved."))
            let empty = try await Self.form(server, "\(path)/edit", "name=+&notes=")
            #expect(empty.status == 400)

            let deleted = try await Self.form(server, "\(path)/delete", "")
            #expect(deleted.status == 303 && deleted.headers["location"] == "/runs?deleted=a.b")
            let list = try await server.client.request("GET", "/runs?deleted=a.b")
            #expect(
                list.text.contains("was deleted") && list.text.contains("action=\"\(path)/restore\"")
                    && Self.names(list.text).isEmpty)
            #expect(try await server.client.request("GET", path).status == 410)
            let restored = try await Self.form(server, "\(path)/restore", "")
            #expect(restored.status == 303)
            #expect(Self.names(try await server.client.request("GET", "/runs").text) == ["After &lt;b&gt;"])
        }
    }

    @Test("/records: the records, how they improved, and distance per week and month")
    func records() async throws {
        try await TrackerServer.with([
            Fixtures.run("slow", day: 0, duration: 1500, pace: 330, seed: 3),
            Fixtures.run("fast", day: 1, duration: 1500, pace: 290, seed: 4)
        ]) { server in
            let page = try await server.client.request("GET", "/records")
            #expect(page.status == 200)
            #expect(page.text.contains("5 km") && page.text.contains("href=\"/runs/fast\""))
            #expect(page.text.contains("How they improved") && page.text.contains("first"))
            #expect(page.text.components(separatedBy: "role=\"img\"").count - 1 == 2)  // the week and month charts
        }
    }

    @Test("weekly and monthly totals fall in the periods of the configured time zone")
    func periodTotals() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        // 2024-05-05T23:30 in New York is Monday 03:30 UTC: the week of May 6 in UTC, of April 29 in New York.
        let sunday = Date(timeIntervalSince1970: 1_714_966_200)
        try fixture.insert(
            SyntheticRun(id: "late", name: "Late", startedAt: sunday, origin: Fixtures.origin, duration: 300))
        let now = sunday.addingTimeInterval(3 * 86_400)
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let local = try await RunPeriodTotals.totals(in: fixture.store, by: .week, count: 3, timeZone: zone, now: now)
        let utc = try await RunPeriodTotals.totals(in: fixture.store, by: .week, count: 3, timeZone: .gmt, now: now)
        #expect(local.map(\.totals.runs) == [0, 1, 0])
        #expect(utc.map(\.totals.runs) == [0, 0, 1])
        #expect(local[1].totals.distance > 500)
        let months = try await RunPeriodTotals.totals(in: fixture.store, by: .month, count: 2, timeZone: zone, now: now)
        #expect(months.map(\.totals.runs) == [0, 1])
    }

    @Test("the now page's run card: start form, then the live run with its buttons, then the last run")
    func liveCard() async throws {
        try await TrackerServer.with([]) { server in
            let idle = try await server.client.request("GET", "/now/run")
            #expect(idle.text.contains("data-state=\"idle\"") && idle.text.contains("data-api=\"POST /v1/runs\""))
            let started = try await server.call("POST", "/v1/runs", "{\"name\": \"Lunch <run>\", \"id\": \"live 1\"}")
            #expect(started.status == 201)
            let tracking = try await server.client.request("GET", "/now/run")
            #expect(tracking.text.contains("data-state=\"tracking\"") && tracking.text.contains("Lunch &lt;run&gt;"))
            #expect(tracking.text.contains("waiting for GPS"))
            #expect(tracking.text.contains("data-api=\"POST /v1/runs/live%201/pause\""))
            _ = try await server.call("POST", "/v1/runs/live%201/pause")
            let paused = try await server.client.request("GET", "/now/run")
            #expect(paused.text.contains("data-state=\"paused\"") && paused.text.contains("/v1/runs/live%201/resume"))
            _ = try await server.call("POST", "/v1/runs/live%201/stop")
            let draft = try await server.client.request("GET", "/now/run")
            #expect(draft.text.contains("data-state=\"draft\"") && draft.text.contains("/v1/runs/live%201/discard"))
            let home = try await server.client.request("GET", "/")
            #expect(home.status == 200 && home.text.contains("too short to save"))
        }
    }

    @Test("GET /v1/runs?activity= filters by activity; an unknown one is a 400 naming it")
    func activityFilter() async throws {
        try await TrackerServer.with([Fixtures.run("w", day: 0, activity: .walk), Fixtures.run("r", day: 1)]) {
            server in
            let walks = try #require(
                try await server.call("GET", "/v1/runs?activity=walk").json()["runs"] as? [[String: Any]])
            #expect(walks.map { $0["id"] as? String } == ["w"])
            let bad = try await server.call("GET", "/v1/runs?activity=swim")
            #expect(bad.status == 400 && bad.text.contains("'activity'"))
        }
    }
}
