import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// Stats, comparisons, routes and segments over HTTP: the full application built from a `PluginHost` with the
/// `run-tracker` consumer (time zone Europe/Berlin, imperial units), over a real SpatiaLite file.
@Suite("Progress routes over HTTP")
struct ProgressRoutesTests {
    /// Three runs of the loop (days 0–2), one the other way round (day 3) and a ride of the loop (day 4).
    static func withServer(_ body: (TrackerServer) async throws -> Void) async throws {
        let yaml =
            "time_zone: Europe/Berlin\nunits: imperial\nconsumers:\n  - type: run-tracker\n    route_match_m: 40\n"
        try await TrackerServer.with(
            yaml: yaml,
            filling: { fixture in
                for (index, speed) in [3.0, 3.6, 3.3].enumerated() {
                    try fixture.insert(
                        Courses.run("loop-\(index)", day: index, speed: speed, seed: UInt64(110 + index)))
                }
                try fixture.insert(Courses.run("back", on: Courses.reversed, day: 3, speed: 3.3, seed: 120))
                try fixture.insert(Courses.run("ride", day: 4, speed: 7, seed: 121, activity: .ride))
            }, body)
    }

    @Test("GET /v1/runs/stats: periods add up to GET /v1/runs for the same filter; bad parameters are 400s")
    func stats() async throws {
        try await Self.withServer { server in
            let answer = try await server.call(
                "GET", "/v1/runs/stats?by=week&from=2024-04-29&to=2024-05-12&activity=run")
            #expect(answer.status == 200, "\(answer.text)")
            let json = try answer.json()
            #expect(json["by"] as? String == "week" && json["time_zone"] as? String == "Europe/Berlin")
            let periods = try #require(json["periods"] as? [[String: Any]])
            #expect(periods.map { $0["label"] as? String } == ["2024-W18", "2024-W19"])
            #expect(periods.first?["start"] as? String == "2024-04-28T22:00:00.000Z", "Monday midnight in Berlin")
            #expect(periods.map { $0["runs"] as? Int } == [4, 0])
            #expect(periods.last?["avg_pace_s_per_km"] is NSNull && periods.last?["longest_run_id"] is NSNull)
            let listed = try #require(
                try await server.call("GET", "/v1/runs?from=2024-04-29&to=2024-05-12&activity=run").json()["runs"]
                    as? [[String: Any]])
            #expect(listed.count == 4 && listed.allSatisfy { $0["activity"] as? String == "run" })
            let total = try #require((json["totals"] as? [String: Any])?["distance_m"] as? Double)
            // Each figure is written to the centimetre (JSONRounding): the sum of four may differ by their roundings.
            #expect(abs(total - listed.compactMap { $0["distance_m"] as? Double }.reduce(0, +)) <= 0.025)
            let trend = try #require(json["trend"] as? [String: Any])
            #expect(trend["periods"] as? Int == 2 && trend["distance_slope_m_per_period"] is Double)
            #expect(trend["pace_slope_s_per_km_per_period"] is NSNull, "one week with runs has no pace trend")

            for bad in [
                "by=fortnight", "from=yesterday", "activity=swim", "from=2024-05-02&to=2024-05-01", "by=week&by=month",
                "limit=3"
            ] {
                let answer = try await server.call("GET", "/v1/runs/stats?\(bad)")
                #expect(answer.status == 400, "\(bad): \(answer.text)")
                #expect(answer.errorCode == "invalid_parameter")
            }
            #expect(try await server.call("GET", "/v1/runs/stats?by=fortnight").text.contains("week, month or year"))
            #expect(try await server.call("POST", "/v1/runs/stats").status == 405)
        }
    }

    @Test("GET /v1/runs/compare: splits in the configured unit, same route with its gap, errors for unknown runs")
    func compare() async throws {
        try await Self.withServer { server in
            let answer = try await server.call("GET", "/v1/runs/compare?a=loop-0&b=loop-1")
            #expect(answer.status == 200, "\(answer.text)")
            let json = try answer.json()
            #expect(
                json["same_route"] as? Bool == true && json["unit"] as? String == "mile"
                    && json["splits_by"] as? String == "route")
            #expect((json["splits"] as? [[String: Any]])?.count == 2)
            let gap = try #require(json["gap"] as? [[String: Any]])
            #expect(gap.count >= 39 && (gap.last?["delta_s"] as? Double ?? 0) < -150, "B is much faster")
            #expect(Set(gap.first?.keys ?? [:].keys) == ["distance_m", "delta_s"])
            let different = try await server.call("GET", "/v1/runs/compare?a=loop-0&b=back").json()
            #expect(
                different["same_route"] as? Bool == false && different["gap"] is NSNull
                    && different["splits_by"] as? String == "distance")

            #expect(try await server.call("GET", "/v1/runs/compare?a=loop-0&b=nope").errorCode == "run_not_found")
            #expect(try await server.call("GET", "/v1/runs/compare?a=loop-0").status == 400)
            #expect(try await server.call("GET", "/v1/runs/compare?a=loop-0&b=loop-1&c=2").status == 400)
            #expect(try await server.call("DELETE", "/v1/runs/back").status == 200)
            #expect(try await server.call("GET", "/v1/runs/compare?a=loop-0&b=back").errorCode == "run_deleted")
        }
    }

    @Test("GET /v1/routes lists routes with their runs, best and latest; GET /v1/routes/{id} ranks them")
    func routes() async throws {
        try await Self.withServer { server in
            let routes = try #require(try await server.call("GET", "/v1/routes").json()["routes"] as? [[String: Any]])
            #expect(routes.count == 1, "only the loop has two runs or more")
            let loop = try #require(routes.first)
            #expect(loop["run_count"] as? Int == 3 && loop["activity"] as? String == "run")
            #expect((loop["best"] as? [String: Any])?["run_id"] as? String == "loop-1")
            #expect((loop["latest"] as? [String: Any])?["run_id"] as? String == "loop-2")
            let all = try #require(
                try await server.call("GET", "/v1/routes?min_runs=1").json()["routes"] as? [[String: Any]])
            #expect(all.count == 3, "the loop, the loop the other way, the ride")
            #expect(
                try #require(
                    try await server.call("GET", "/v1/routes?min_runs=1&activity=ride").json()["routes"]
                        as? [[String: Any]]
                ).count == 1)

            let id = try #require(loop["id"] as? Int)
            let detail = try await server.call("GET", "/v1/routes/\(id)")
            #expect(detail.status == 200)
            let ranked = try #require(try detail.json()["runs"] as? [[String: Any]])
            #expect(ranked.map { $0["run_id"] as? String } == ["loop-1", "loop-2", "loop-0"])
            #expect(ranked.map { $0["rank"] as? Int } == [1, 2, 3])
            for missing in ["/v1/routes/999", "/v1/routes/abc"] {
                #expect(try await server.call("GET", missing).errorCode == "route_not_found")
            }
            #expect(try await server.call("GET", "/v1/routes?min_runs=0").status == 400)
            #expect(try await server.call("GET", "/v1/routes?activity=swim").status == 400)
        }
    }

    @Test(
        "POST /v1/segments adds a segment with every effort; GET lists, shows and ranks; DELETE removes; bad input stores nothing"
    )
    func segments() async throws {
        try await Self.withServer { server in
            let created = try await server.call(
                "POST", "/v1/segments", #"{"name": "West side", "run_id": "loop-0", "from_km": 0.1, "to_km": 1.1}"#)
            #expect(created.status == 201, "\(created.text)")
            let segment = try created.json()
            let id = try #require(segment["id"] as? Int)
            #expect(
                segment["effort_count"] as? Int == 3
                    && (segment["best"] as? [String: Any])?["run_id"] as? String == "loop-1")
            #expect((segment["path"] as? [[Double]])?.first?.count == 2)

            let byPoints = try await server.call(
                "POST", "/v1/segments",
                #"""
                {"name": "Points", "run_id": "loop-2", "from": "\#(Self.text(Courses.loop.path.coordinate(at: 1300)))", "to": "\#(Self.text(Courses.loop.path.coordinate(at: 1900)))"}
                """#)
            #expect(byPoints.status == 201, "\(byPoints.text)")

            let list = try #require(try await server.call("GET", "/v1/segments").json()["segments"] as? [[String: Any]])
            #expect(list.map { $0["name"] as? String } == ["Points", "West side"])
            let efforts = try await server.call("GET", "/v1/segments/\(id)/efforts")
            #expect(efforts.status == 200)
            let ranked = try #require(try efforts.json()["efforts"] as? [[String: Any]])
            #expect(ranked.map { $0["run_id"] as? String } == ["loop-1", "loop-2", "loop-0"])
            #expect(try await server.call("GET", "/v1/segments/West%20side").status == 200, "by name too")

            let bad: [(String, Int, String)] = [
                (#"{"name": "Far", "run_id": "loop-0", "from_km": 1, "to_km": 9}"#, 400, "invalid_parameter"),
                (#"{"name": "Short", "run_id": "loop-0", "from_km": 1, "to_km": 1.05}"#, 400, "invalid_parameter"),
                (#"{"name": "Mixed", "run_id": "loop-0", "from_km": 1, "to": "48.1,11.5"}"#, 400, "invalid_parameter"),
                (
                    #"{"name": "Extra", "run_id": "loop-0", "from_km": 1, "to_km": 2, "colour": "red"}"#, 400,
                    "invalid_parameter"
                ),
                (#"{"name": "Ghost", "run_id": "ghost", "from_km": 0, "to_km": 1}"#, 404, "run_not_found"),
                (#"{"name": "West side", "run_id": "loop-1", "from_km": 0, "to_km": 1}"#, 409, "segment_exists"),
                (#"{"run_id": "loop-1", "from_km": 0, "to_km": 1}"#, 400, "invalid_body"),
                ("not json", 400, "invalid_body")
            ]
            for (body, status, code) in bad {
                let answer = try await server.call("POST", "/v1/segments", body)
                #expect(answer.status == status && answer.errorCode == code, "\(body): \(answer.status) \(answer.text)")
            }
            #expect(
                try #require(try await server.call("GET", "/v1/segments").json()["segments"] as? [[String: Any]]).count
                    == 2)

            #expect(try await server.call("DELETE", "/v1/segments/\(id)").status == 204)
            #expect(try await server.call("GET", "/v1/segments/\(id)").errorCode == "segment_not_found")
            #expect(try await server.call("GET", "/v1/segments/\(id)/efforts").errorCode == "segment_not_found")
            #expect(try await server.call("DELETE", "/v1/segments/\(id)").status == 404)
        }
    }

    static func text(_ coordinate: Coordinate?) -> String {
        coordinate.map {
            "\(NumberText.fixed($0.latitude, decimals: 7)),\(NumberText.fixed($0.longitude, decimals: 7))"
        } ?? ""
    }
}
