import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// Privacy zones of the configuration, stored by the service with their secret, applied by every route and page
/// that shows a run's route, over a real socket.
@Suite("Privacy zones over HTTP and in the store")
struct PrivacyRoutesTests {
    static let run = Fixtures.run("p", day: 0, name: "Home loop", duration: 1500)

    /// The run's middle route point: the centre of the configured 150 m zone.
    static func door() throws -> Coordinate {
        let tracked = try #require(RunImport.track(run.recording, id: run.id, name: run.name, activity: .run))
        let usable = RunProgress.usable(tracked.points)
        return try #require(usable[usable.count / 2].coordinate)
    }

    static func yaml(_ door: Coordinate, pagesShowZones: Bool = false) -> String {
        """
        consumers:
          - type: run-tracker
            privacy:
              zones:
                - { name: home, center: "\(door.latitude),\(door.longitude)", radius_m: 150 }
              pages_show_zones: \(pagesShowZones)

        """
    }

    static func routeData(_ html: String) throws -> [[Double]] {
        let json = try #require(
            html.components(separatedBy: "<script type=\"application/json\" id=\"route-data\">").dropFirst().first?
                .components(separatedBy: "</script>").first)
        let map = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(map["lines"] as? [[String: Any]]).flatMap { ($0["points"] as? [[Double]]) ?? [] }
    }

    @Test("exports, the picture, the run's route and its page leave out the configured zone unless keep_private")
    func routes() async throws {
        let door = try Self.door()
        let near = { (coordinate: Coordinate) in Geodesic.wgs84.distance(coordinate, door) <= 150 }
        let nearPair = { (pair: [Double]) in near((try? Coordinate(latitude: pair[0], longitude: pair[1])) ?? .zero) }
        try await TrackerServer.with(yaml: Self.yaml(door), filling: { try $0.insert(Self.run) }) { server in
            let geojson = try await server.call("GET", "/v1/runs/p.geojson")
            let geometry = try #require(try geojson.json()["geometry"] as? [String: Any])
            let lines = try #require(geometry["coordinates"] as? [[[Double]]])
            #expect(lines.count > 1 && !lines.flatMap { $0 }.contains { nearPair([$0[1], $0[0]]) })
            for format in ExportFormat.allCases where format != .geojson {
                let cut = try await server.call("GET", "/v1/runs/p.\(format.fileExtension)")
                #expect(cut.status == 200)
                let read = try #require(try ActivityFileReader.read(cut.body, file: "p.\(format.fileExtension)").first)
                #expect(!read.samples.compactMap(\.coordinate).contains(where: near), "\(format)")
                let whole = try await server.call("GET", "/v1/runs/p.\(format.fileExtension)?keep_private=true")
                let all = try #require(try ActivityFileReader.read(whole.body, file: "p.\(format.fileExtension)").first)
                #expect(all.samples.compactMap(\.coordinate).contains(where: near), "\(format)")
                let relative = try await server.call("GET", "/v1/runs/p.\(format.fileExtension)?relative_time=true")
                let shifted = try #require(
                    try ActivityFileReader.read(relative.body, file: "p.\(format.fileExtension)").first)
                #expect(shifted.samples.first.map { $0.time.timeIntervalSince(RelativeTime.epoch) < 60 } == true)
            }
            let bad = try await server.call("GET", "/v1/runs/p.gpx?keep_private=yes")
            #expect(bad.status == 400 && bad.text.contains("keep_private"))

            let detail = try await server.call("GET", "/v1/runs/p")
            let analysis = try #require(try detail.json()["analysis"] as? [String: Any])
            let route = try #require(analysis["route"] as? [String: Any])
            let pairs = try #require(route["segments"] as? [[[Double]]]).flatMap { $0 }
            #expect(!pairs.isEmpty && !pairs.contains(where: nearPair))
            let run = try #require(try detail.json()["run"] as? [String: Any])
            let full = try #require(
                RunImport.track(Self.run.recording, id: "p", name: Self.run.name, activity: .run))
            #expect(abs((run["distance_m"] as? Double ?? 0) - full.summary.distance) < 0.01)
            let whole = try await server.call("GET", "/v1/runs/p?keep_private=true")
            let wholePairs = try #require(
                ((try whole.json()["analysis"] as? [String: Any])?["route"] as? [String: Any])?["segments"]
                    as? [[[Double]]]
            ).flatMap { $0 }
            #expect(wholePairs.contains(where: nearPair))

            let page = try await server.call("GET", "/runs/p")
            #expect(!(try Self.routeData(page.text)).contains(where: nearPair))
            let picture = try await server.call("GET", "/v1/runs/p/route.svg")
            let wholePicture = try await server.call("GET", "/v1/runs/p/route.svg?keep_private=true")
            #expect(picture.status == 200 && picture.text != wholePicture.text)
        }
    }

    @Test("a segment's path leaves out the zone, its start and finish too when inside one; keep_private shows it whole")
    func segments() async throws {
        let door = try Self.door()
        let near = { (pair: [Double]) in
            Geodesic.wgs84.distance((try? Coordinate(latitude: pair[0], longitude: pair[1])) ?? .zero, door) <= 150
        }
        try await TrackerServer.with(yaml: Self.yaml(door), filling: { try $0.insert(Self.run) }) { server in
            let across = try await server.call(
                "POST", "/v1/segments", #"{"name": "Across", "run_id": "p", "from_km": 0.5, "to_km": 4.5}"#)
            #expect(across.status == 201, "\(across.text)")
            // From the door itself to the run's last quarter.
            let tracked = try #require(
                RunImport.track(Self.run.recording, id: Self.run.id, name: Self.run.name, activity: .run))
            let usable = RunProgress.usable(tracked.points)
            let end = try #require(usable[usable.count * 7 / 8].coordinate)
            let home = try await server.call(
                "POST", "/v1/segments",
                #"{"name": "From home", "run_id": "p", "from": "\#(door.latitude),\#(door.longitude)", "to": "\#(end.latitude),\#(end.longitude)"}"#
            )
            #expect(home.status == 201, "\(home.text)")
            for path in ["/v1/segments/Across", "/v1/segments/Across/efforts"] {
                let answer = try await server.call("GET", path)
                let json = try answer.json()
                let segment = try #require((json["segment"] as? [String: Any]) ?? json)
                let points = try #require(segment["path"] as? [[Double]])
                #expect(points.count > 10 && !points.contains(where: near), "\(path)")
                #expect(segment["start"] is [Double] && segment["finish"] is [Double])
                let whole = try await server.call("GET", path + "?keep_private=true").json()
                let all = try #require(((whole["segment"] as? [String: Any]) ?? whole)["path"] as? [[Double]])
                #expect(all.contains(where: near), "\(path)")
            }
            let listed = try #require(
                try await server.call("GET", "/v1/segments").json()["segments"] as? [[String: Any]])
            let fromHome = try #require(listed.first { $0["name"] as? String == "From home" })
            #expect(fromHome["start"] is NSNull && fromHome["finish"] is [Double], "\(fromHome)")
            #expect(!(fromHome["path"] as? [[Double]] ?? []).contains(where: near))
            #expect(try home.json()["start"] is NSNull)
            #expect(try await server.call("GET", "/v1/segments?keep_private=maybe").status == 400)
        }
    }

    @Test("pages_show_zones: the owner's run page draws the whole route; downloads stay cut")
    func pagesShowZones() async throws {
        let door = try Self.door()
        let near = { (pair: [Double]) in
            Geodesic.wgs84.distance((try? Coordinate(latitude: pair[0], longitude: pair[1])) ?? .zero, door) <= 150
        }
        try await TrackerServer.with(yaml: Self.yaml(door, pagesShowZones: true), filling: { try $0.insert(Self.run) })
        { server in
            let page = try await server.call("GET", "/runs/p")
            #expect(try Self.routeData(page.text).contains(where: near))
            let gpx = try await server.call("GET", "/v1/runs/p.gpx")
            let read = try #require(try ActivityFileReader.read(gpx.body, file: "p.gpx").first)
            #expect(
                !read.samples.compactMap(\.coordinate).contains { Geodesic.wgs84.distance($0, door) <= 150 })
        }
    }

    @Test("stored zones keep their secret; a changed configured zone gets a new one; names are unique")
    func storage() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let home = try Coordinate(latitude: 48.1, longitude: 11.5)
        let configured = [ConfiguredZone(name: "home", centre: home, radius: 300)]
        try PrivacyBook.synchronise(configured, in: fixture.store)
        let first = try await fixture.store.database.read { try PrivacyBook.zones($0) }
        try PrivacyBook.synchronise(configured, in: fixture.store)
        let again = try await fixture.store.database.read { try PrivacyBook.zones($0) }
        #expect(first == again && first.count == 1 && first[0].source == .configuration)
        let moved = [ConfiguredZone(name: "home", centre: home, radius: 400)]
        try PrivacyBook.synchronise(moved, in: fixture.store)
        let changed = try await fixture.store.database.read { try PrivacyBook.zones($0) }
        #expect(changed[0].radius == 400 && changed[0].secret != first[0].secret)

        try await fixture.store.database.write { db in
            try PrivacyBook.add(name: "work", centre: home, radius: 200, in: db)
            #expect(throws: PrivacyError.exists(name: "home", source: .configuration)) {
                try PrivacyBook.add(name: "home", centre: home, radius: 200, in: db)
            }
            #expect(throws: PrivacyError.configured(name: "home")) { try PrivacyBook.remove(name: "home", in: db) }
            #expect(throws: PrivacyError.invalidRadius(50)) {
                try PrivacyBook.add(name: "x", centre: home, radius: 50, in: db)
            }
        }
        try PrivacyBook.synchronise([], in: fixture.store)
        let left = try await fixture.store.database.read { try PrivacyBook.zones($0) }
        #expect(left.map(\.name) == ["work"])
        try await fixture.store.database.write { db in try PrivacyBook.remove(name: "work", in: db) }
        #expect(try await fixture.history.privacyZones().isEmpty)
    }
}
