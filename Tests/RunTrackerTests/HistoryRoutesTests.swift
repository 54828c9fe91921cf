import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// The history routes on a real HTTP socket: the full application built from a `PluginHost` with the
/// `run-tracker` consumer, over a real SpatiaLite file holding runs imported through the tracker.
@Suite("History routes over HTTP")
struct HistoryRoutesTests {
    /// Five saved runs, one a day from `Fixtures.day0`: run-0 … run-4, even days named "Morning …".
    static func withServer(_ body: (TrackerServer) async throws -> Void) async throws {
        try await TrackerServer.with(
            (0..<5).map { day in
                Fixtures.run(
                    "run-\(day)", day: day, name: day % 2 == 0 ? "Morning \(day)" : "Evening \(day)",
                    duration: 600, pace: 300 + Double(day) * 10, seed: UInt64(day + 1))
            }, body)
    }

    static func ids(_ response: HTTPTestClient.Response) throws -> [String] {
        try #require(try response.json()["runs"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    }

    @Test("GET /v1/runs pages newest first with a cursor, searches by name and date, and rejects bad queries")
    func listing() async throws {
        try await Self.withServer { server in
            var seen: [String] = []
            var path = "/v1/runs?limit=2"
            var pages = 0
            while true {
                let page = try await server.call("GET", path)
                #expect(page.status == 200)
                seen += try Self.ids(page)
                pages += 1
                let next = try #require(try page.json()["next_cursor"])  // null on the last page, never absent
                guard let cursor = next as? String else {
                    #expect(next is NSNull)
                    break
                }
                path = "/v1/runs?limit=2&cursor=\(cursor)"
            }
            #expect(pages == 3)
            #expect(seen == ["run-4", "run-3", "run-2", "run-1", "run-0"])

            #expect(try Self.ids(await server.call("GET", "/v1/runs?q=EVENING")) == ["run-3", "run-1"])
            #expect(try Self.ids(await server.call("GET", "/v1/runs?q=%25")).isEmpty)  // a literal %
            #expect(
                try Self.ids(await server.call("GET", "/v1/runs?from=2024-05-02&to=2024-05-03")) == ["run-2", "run-1"])
            let first = try #require(
                try await server.call("GET", "/v1/runs?limit=1").json()["runs"] as? [[String: Any]]
            ).first
            #expect(first?["distance_m"] as? Double ?? 0 > 1000)
            #expect(first?["state"] as? String == "stopped")
            #expect(first?["deleted_at"] is NSNull && first?["purge_at"] is NSNull)

            for bad in [
                "/v1/runs?limit=0", "/v1/runs?cursor=not-a-cursor", "/v1/runs?from=May%202", "/v1/runs?deleted=yes"
            ] {
                let answer = try await server.call("GET", bad)
                #expect(answer.status == 400, "\(bad): \(answer.text)")
            }
            let deletedFlag = try await server.call("GET", "/v1/runs?deleted=1")
            #expect(deletedFlag.text.contains("'deleted'") && deletedFlag.text.contains("true"))
            #expect(try Self.ids(await server.call("GET", "/v1/runs?deleted=false")).count == 5)
        }
    }

    @Test("GET/PATCH /v1/runs/{id}: the detail, edits of name and notes only, and the edit log")
    func detailAndEdits() async throws {
        try await Self.withServer { server in
            let detail = try await server.call("GET", "/v1/runs/run-2?max_points=50")
            #expect(detail.status == 200)
            let body = try detail.json()
            #expect((body["run"] as? [String: Any])?["id"] as? String == "run-2")
            let analysis = try #require(body["analysis"] as? [String: Any])
            #expect((analysis["splits"] as? [[String: Any]])?.map { $0["unit"] as? String } == ["km", "mile"])
            let quality = try #require(analysis["quality"] as? [String: Any])
            #expect(
                quality["accuracy_p50_m"] is Double && quality["accuracy_p95_m"] is Double
                    && quality["accuracy_max_m"] is Double)
            let effort = try #require((analysis["best_efforts"] as? [[String: Any]])?.first)
            #expect(Set(effort.keys) == ["distance", "elapsed_s", "start_offset_s"])
            let unknown = try await server.call("GET", "/v1/runs/nope")
            #expect(unknown.status == 404 && unknown.errorCode == "run_not_found")
            #expect(try await server.call("GET", "/v1/runs/run-2?max_points=1").status == 400)

            let edited = try await server.call(
                "PATCH", "/v1/runs/run-2", #"{"name": "  Park loop  ", "notes": "windy"}"#)
            #expect(edited.status == 200)
            #expect(try edited.json()["name"] as? String == "Park loop")
            let immutable = try await server.call("PATCH", "/v1/runs/run-2", #"{"distance_m": "9000"}"#)
            #expect(immutable.status == 400 && immutable.text.contains("distance_m"))
            #expect(try await server.call("PATCH", "/v1/runs/run-2", #"{"name": "   "}"#).status == 400)
            #expect(try await server.call("PATCH", "/v1/runs/nope", #"{"name": "x"}"#).status == 404)

            let log = try await server.call("GET", "/v1/runs/run-2/edits")
            let entries = try #require(try JSONSerialization.jsonObject(with: log.body) as? [[String: Any]])
            #expect(entries.map { $0["field"] as? String } == ["name", "notes"])
            #expect(
                entries.first?["old_value"] as? String == "Morning 2"
                    && entries.first?["new_value"] as? String == "Park loop")
        }
    }

    @Test("DELETE hides a run (410 run_deleted), lists it under deleted=true, and POST restore brings it back")
    func deleteAndRestore() async throws {
        try await Self.withServer { server in
            let deleted = try await server.call("DELETE", "/v1/runs/run-1")
            #expect(deleted.status == 200)
            #expect(try deleted.json()["purge_at"] is String)
            let gone = try await server.call("GET", "/v1/runs/run-1")
            #expect(gone.status == 410 && gone.errorCode == "run_deleted")
            #expect(try await server.call("GET", "/v1/runs/run-1.gpx").status == 410)
            #expect(try !Self.ids(await server.call("GET", "/v1/runs")).contains("run-1"))
            let trash = try #require(
                try await server.call("GET", "/v1/runs?deleted=true").json()["runs"] as? [[String: Any]])
            #expect(trash.map { $0["id"] as? String } == ["run-1"])
            #expect(trash.first?["deleted_at"] is String && trash.first?["purge_at"] is String)

            let restored = try await server.call("POST", "/v1/runs/run-1/restore")
            #expect(try restored.status == 200 && restored.json()["id"] as? String == "run-1")
            let again = try await server.call("POST", "/v1/runs/run-1/restore")
            #expect(again.status == 409 && again.errorCode == "not_deleted")
            let unknown = try await server.call("POST", "/v1/runs/nope/restore")
            #expect(unknown.status == 404 && unknown.errorCode == "run_not_found")
            #expect(try await server.call("GET", "/v1/runs/run-1").status == 200)

            // several at once: all or none
            #expect(try await server.call("DELETE", "/v1/runs?ids=run-3,nope").status == 404)
            #expect(try await server.call("GET", "/v1/runs/run-3").status == 200)
            #expect(try await server.call("DELETE", "/v1/runs?ids=run-3,run-4").status == 200)
            #expect(try Self.ids(await server.call("GET", "/v1/runs")) == ["run-2", "run-1", "run-0"])
            #expect(try await server.call("DELETE", "/v1/runs").status == 400)
        }
    }

    @Test("DELETE /v1/runs?ids= takes an id holding a comma given as %2C, and ids with spaces as they are")
    func deleteIdsWithCommas() async throws {
        let runs = ["a,b", " c", "d"].enumerated().map { day, id in
            Fixtures.run(id, day: day, name: "Run \(day)", duration: 600, pace: 300, seed: UInt64(day + 1))
        }
        try await TrackerServer.with(runs) { server in
            let split = try await server.call("DELETE", "/v1/runs?ids=a,b")
            #expect(split.status == 404, "\(split.text)")
            let deleted = try await server.call("DELETE", "/v1/runs?ids=a%2Cb,%20c")
            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(Set(try #require(try deleted.json()["deleted"] as? [String])) == ["a,b", " c"])
            #expect(try Self.ids(await server.call("GET", "/v1/runs")) == ["d"])
            #expect(try await server.call("DELETE", "/v1/runs?ids=%zz").status == 400)
            #expect(try await server.call("DELETE", "/v1/runs?ids=").status == 400)
        }
    }

    @Test(
        "a store that refuses writes (damage found, query_only) answers writes 503 database_unavailable with Retry-After; reads go on"
    )
    func refusedWrites() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try fixture.insert(Fixtures.run("run-0", day: 0, duration: 600, pace: 300, seed: 1))
        let server = try await TrackerServer.start(store: fixture.store)
        do {
            try await fixture.store.database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA query_only = 1")
            }
            let edit = try await server.call("PATCH", "/v1/runs/run-0", #"{"name": "Renamed"}"#)
            #expect(edit.status == 503 && edit.errorCode == "database_unavailable", "\(edit.status) \(edit.text)")
            #expect(edit.headers["retry-after"] == "5")
            let start = try await server.call("POST", "/v1/runs", #"{"name": "Probe"}"#)
            #expect(start.status == 503, "\(start.status) \(start.text)")
            #expect(try await server.call("GET", "/v1/runs/run-0").status == 200)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("GET /v1/records lists current records and their history; deleting the record run recomputes them")
    func records() async throws {
        try await Self.withServer { server in
            let report = try await server.call("GET", "/v1/records")
            #expect(report.status == 200)
            let records = try #require(try report.json()["records"] as? [[String: Any]])
            #expect(records.map { $0["distance"] as? String } == ["1k", "mile"])
            let holder = try #require(records.first?["run_id"] as? String)
            #expect(holder == "run-0")  // the fastest pace
            // history-only keys are present in current records too, as null
            #expect(
                records.allSatisfy {
                    $0["run_deleted"] is NSNull && $0["previous_elapsed_s"] is NSNull && $0["recorded_at"] is NSNull
                })
            #expect(try #require(try report.json()["history"] as? [[String: Any]]).count >= 2)

            let only = try #require(
                try await server.call("GET", "/v1/records?distance=mile").json()["records"] as? [[String: Any]])
            #expect(only.map { $0["distance"] as? String } == ["mile"])
            let bad = try await server.call("GET", "/v1/records?distance=2k")
            #expect(bad.status == 400 && bad.text.contains("half_marathon"))

            #expect(try await server.call("DELETE", "/v1/runs/\(holder)").status == 200)
            let after = try #require(try await server.call("GET", "/v1/records").json()["records"] as? [[String: Any]])
            #expect(after.allSatisfy { $0["run_id"] as? String != holder })
        }
    }

    @Test("GET /v1/runs/{id}.gpx|.tcx|.geojson and /route.svg answer documents with their content types")
    func documents() async throws {
        try await Self.withServer { server in
            let gpx = try await server.call("GET", "/v1/runs/run-0.gpx")
            #expect(gpx.status == 200)
            #expect(
                gpx.headers.first { $0.key.lowercased() == "content-type" }?.value.hasPrefix("application/gpx+xml")
                    == true)
            #expect(
                gpx.headers.first { $0.key.lowercased() == "content-disposition" }?.value.contains("run-0.gpx") == true)
            #expect(gpx.text.hasPrefix("<?xml") && gpx.text.contains("<trkpt "))
            let tcx = try await server.call("GET", "/v1/runs/run-0.tcx")
            #expect(tcx.status == 200 && tcx.text.contains("<TrainingCenterDatabase"))
            let geojson = try await server.call("GET", "/v1/runs/run-0.geojson")
            #expect(try geojson.status == 200 && geojson.json()["type"] as? String == "Feature")
            #expect(try await server.call("GET", "/v1/runs/nope.gpx").status == 404)

            let svg = try await server.call("GET", "/v1/runs/run-0/route.svg?width=400")
            #expect(svg.status == 200)
            #expect(
                svg.headers.first { $0.key.lowercased() == "content-type" }?.value.hasPrefix("image/svg+xml") == true)
            #expect(svg.text.contains("<svg") && svg.text.contains("width=\"400\""))
            #expect(try await server.call("GET", "/v1/runs/run-0/route.svg?width=100").status == 400)
            #expect(try await server.call("GET", "/v1/runs/nope/route.svg").status == 404)
        }
    }

    @Test("a run being recorded cannot be deleted (409 run_active); the live routes' errors on the same server")
    func activeRun() async throws {
        try await Self.withServer { server in
            let none = try await server.call("GET", "/v1/runs/active")
            #expect(none.status == 404 && none.errorCode == "no_active_run")
            let started = try await server.call("POST", "/v1/runs", #"{"name": "Now", "id": "live-1"}"#)
            #expect(started.status == 201)
            let retried = try await server.call("POST", "/v1/runs", #"{"name": "Now", "id": "live-1"}"#)
            #expect(retried.status == 200 || retried.status == 201)
            #expect(try await server.call("POST", "/v1/runs", #"{"name": "Other"}"#).errorCode == "run_active")
            #expect(try await server.call("POST", "/v1/runs", "not json").errorCode == "invalid_body")
            let delete = try await server.call("DELETE", "/v1/runs/live-1")
            #expect(delete.status == 409 && delete.errorCode == "run_active")
            // the active run is not in the history until it is saved
            #expect(try !Self.ids(await server.call("GET", "/v1/runs")).contains("live-1"))
            #expect(try await server.call("POST", "/v1/runs/live-1/discard").errorCode == "run_not_draft")
            #expect(try await server.call("POST", "/v1/runs/nope/stop").errorCode == "run_not_found")
        }
    }
}
