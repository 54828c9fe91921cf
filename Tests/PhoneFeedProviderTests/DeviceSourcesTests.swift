import Foundation
import MeridianCore
import MeridianTesting
import RunTracker
import Testing

@testable import PhoneFeedProvider

/// Each phone as a source of its own in the host, and the OwnTracks command channel driven by the run tracker, over a
/// real socket with a real store and the real run tracker.
@Suite struct DeviceSourcesTests {
    let feeds = FeedRoutesTests()

    static let registry: PluginRegistry = {
        var registry = PluginRegistry()
        registry.register(PhoneFeedProvider.registration)
        registry.register(RunTrackerPlugin.registration)
        return registry
    }()

    func withServer(devices: String = "", _ body: (TestServer) async throws -> Void) async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        let registry = Self.registry
        let yaml =
            "providers:\n  - id: phones\n    type: phone\n    stale_after: 600\n\(devices)consumers:\n  - type: run-tracker\n"
        let server = try await TestServer.start(
            yaml: yaml, registry: registry, store: temporary.store, token: FeedRoutesTests.token)
        try await server.run(body)
    }

    func ownTracks(_ lat: Double, at time: Int, mode: Int? = nil) -> Data {
        Data(
            #"{"_type":"location","lat":\#(lat),"lon":13.4,"tst":\#(time),"acc":5\#(mode.map { ",\"m\":\($0)" } ?? "")}"#
                .utf8)
    }

    @Test("a second phone does not take over from a fresh first one: each device is its own source")
    func devicesAreSourcesOfTheirOwn() async throws {
        try await withServer { server in
            let keyA = try await feeds.register("Zoë's 📱", on: server)
            let keyB = try await feeds.register("pixel", on: server)
            let now = Int(Date().timeIntervalSince1970)
            let phoneA = feeds.client(server, feeds.basic("Zoë's 📱", keyA))
            let phoneB = feeds.client(server, feeds.basic("pixel", keyB))
            #expect(
                try await phoneA.request("POST", "/v1/feeds/owntracks", body: ownTracks(52.1, at: now - 2)).status
                    == 200)
            #expect(
                try await phoneB.request("POST", "/v1/feeds/owntracks", body: ownTracks(48.1, at: now - 1)).status
                    == 200)
            let position = try #require(
                try await server.client.request("GET", "/v1/position").json()["fix"] as? [String: Any])
            #expect(
                position["provider"] as? String == "phones/Zoë's 📱" && position["lat"] as? Double == 52.1, "\(position)"
            )
            let rows = try #require(
                try await server.client.request("GET", "/v1/providers").json()["providers"] as? [[String: Any]])
            let active = Dictionary(
                uniqueKeysWithValues: rows.compactMap { row in
                    (row["id"] as? String).map { ($0, row["active"] as? Bool) }
                })
            #expect(active == ["phones": true, "phones/Zoë's 📱": true, "phones/pixel": false], "\(rows)")
        }
    }

    @Test("a device given a priority of its own in the devices option takes over from a fresh phone of the entry's")
    func devicePriority() async throws {
        try await withServer(devices: "    devices:\n      pixel: {priority: 20}\n") { server in
            let keyA = try await feeds.register("Zoë's 📱", on: server)
            let keyB = try await feeds.register("pixel", on: server)
            let now = Int(Date().timeIntervalSince1970)
            #expect(
                try await feeds.client(server, feeds.basic("Zoë's 📱", keyA))
                    .request("POST", "/v1/feeds/owntracks", body: ownTracks(52.1, at: now - 2)).status == 200)
            #expect(
                try await feeds.client(server, feeds.basic("pixel", keyB))
                    .request("POST", "/v1/feeds/owntracks", body: ownTracks(48.1, at: now - 1)).status == 200)
            let position = try #require(
                try await server.client.request("GET", "/v1/position").json()["fix"] as? [String: Any])
            #expect(
                position["provider"] as? String == "phones/pixel" && position["lat"] as? Double == 48.1, "\(position)")
        }
        let bad = "providers:\n  - id: phones\n    type: phone\n    devices:\n      pixel: {stale_after: -1}\n"
        let error = #expect(throws: ConfigError.self) {
            _ = try PluginHost(
                config: try ConfigLoader.parse(bad), registry: Self.registry, logger: .init(label: "test"))
        }
        #expect(
            "\(error.map { "\($0)" } ?? "")".contains("stale_after of 'pixel' must be a number of seconds above 0"),
            "\(String(describing: error))")
    }

    /// The four apps' ways of sending points, as their documentation gives them.
    enum App: String, CaseIterable, Sendable {
        case ownTracks, osmAnd, overland, gpsLogger
    }

    /// Sends `seconds` (after `start`; a point a second, about 3.3 m/s northwards) as one request of `app`'s kind, or
    /// one request per point where the app sends them one by one.
    func send(_ seconds: [Int], start: Int, as app: App, key: String, on server: TestServer) async throws {
        func latitude(_ second: Int) -> Double { 52.5 + Double(second) * 0.00003 }
        switch app {
        case .ownTracks:
            let phone = feeds.client(server, feeds.basic("pixel", key))
            for second in seconds {
                let body = ownTracks(latitude(second), at: start + second)
                #expect(try await phone.request("POST", "/v1/feeds/owntracks", body: body).status == 200)
            }
        case .osmAnd, .gpsLogger:
            let phone = feeds.client(server)
            for second in seconds {
                let time =
                    app == .osmAnd
                    ? "\(start + second)"
                    : ISO8601.string(from: Date(timeIntervalSince1970: Double(start + second)))
                let query =
                    "key=\(key)&id=pixel&lat=\(latitude(second))&lon=13.4&timestamp=\(time)&accuracy=5"
                    + (app == .gpsLogger ? "&speed_mps=3.3&batt=80" : "&speed=6.4")
                #expect(try await phone.request("GET", "/v1/feeds/osmand?\(query)").status == 200)
            }
        case .overland:
            let features = seconds.map { second in
                let time = ISO8601.string(from: Date(timeIntervalSince1970: Double(start + second)))
                return
                    #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,\#(latitude(second))]},"properties":{"timestamp":"\#(time)","horizontal_accuracy":5,"speed":3.3}}"#
            }
            let body = Data(#"{"locations":[\#(features.joined(separator: ","))]}"#.utf8)
            let answer = try await feeds.client(server, "Bearer \(key)").request(
                "POST", "/v1/feeds/overland", body: body)
            #expect(answer.status == 200 && answer.text == #"{"result":"ok"}"#, "\(answer.text)")
        }
    }

    /// The active run after `app` sent the points of `batches`, once it has `points` points.
    func runFed(_ batches: [[Int]], by app: App, points: Int) async throws -> [String: Any] {
        var run: [String: Any] = [:]
        try await withServer { server in
            let key = try await feeds.register("pixel", on: server)
            let started = try await server.client.request("POST", "/v1/runs", body: Data(#"{"activity":"run"}"#.utf8))
            #expect(started.status == 201, "\(started.text)")
            let start = Int(Date().timeIntervalSince1970.rounded(.up))
            for batch in batches { try await send(batch, start: start, as: app, key: key, on: server) }
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                run = try await server.client.request("GET", "/v1/runs/active").json()["run"] as? [String: Any] ?? [:]
                if run["points"] as? Int == points { break }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        return run
    }

    @Test(
        "each app's offline queue, sent after newer points, goes into the active run in its place: as if sent in order",
        arguments: App.allCases)
    func lateQueueReachesTheActiveRun(_ app: App) async throws {
        let inOrder = try await runFed([Array(1...40)], by: app, points: 40)
        // Live, then 20 seconds offline; the queue comes after the newer points.
        let late = try await runFed([Array(1...10) + Array(31...40), Array(11...30)], by: app, points: 40)
        #expect(late["points"] as? Int == 40, "\(late)")
        for key in ["points", "rejected_points", "segments"] {
            #expect(late[key] as? Int == inOrder[key] as? Int, "\(key): \(late) against \(inOrder)")
        }
        let (lateDistance, distance) = (late["distance_m"] as? Double ?? 0, inOrder["distance_m"] as? Double ?? -1)
        #expect(abs(lateDistance - distance) < 0.01 && distance > 80, "\(lateDistance) m against \(distance) m")
    }

    /// The `sampling` of device `name` in `GET /v1/devices`, once `wanted` is `mode` (the provider follows the run
    /// tracker's events beside the request that caused them).
    func waitForWanted(_ mode: String, _ name: String, on server: TestServer) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let devices = try #require(
                try await server.client.request("GET", "/v1/devices").json()["devices"] as? [[String: Any]])
            let sampling = devices.first { $0["id"] as? String == name }?["sampling"] as? [String: Any] ?? [:]
            if sampling["wanted"] as? String == mode || ContinuousClock.now > deadline { return sampling }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test(
        "OwnTracks round trip: run start → move mode in the next answer → the phone reports move → stop → significant")
    func ownTracksCommandRoundTrip() async throws {
        try await withServer { server in
            let key = try await feeds.register("Zoë", on: server)
            let phone = feeds.client(server, feeds.basic("Zoë", key))
            var time = Int(Date().timeIntervalSince1970) - 100
            func post(mode: Int) async throws -> [[String: Any]] {
                time += 1
                let response = try await phone.request(
                    "POST", "/v1/feeds/owntracks", body: ownTracks(52.5, at: time, mode: mode))
                #expect(response.status == 200)
                return try #require(
                    try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]], "\(response.text)")
            }
            #expect(try await post(mode: 1).isEmpty)  // no run: nothing to say

            let started = try await server.client.request("POST", "/v1/runs", body: Data(#"{"activity":"walk"}"#.utf8))
            #expect(started.status == 201, "\(started.text)")
            let run = try #require((try started.json()["run"] as? [String: Any])?["id"] as? String)
            #expect(try await waitForWanted("move", "Zoë", on: server)["wanted"] as? String == "move")
            let move = try await post(mode: 1)
            #expect(
                move.count == 1 && move.first?["_type"] as? String == "cmd"
                    && move.first?["action"] as? String == "setConfiguration")
            let configuration = try #require(move.first?["configuration"] as? [String: Any])
            #expect(configuration["_type"] as? String == "configuration" && configuration["monitoring"] as? Int == 2)
            #expect(configuration["locatorInterval"] as? Int == 2 && configuration["locatorDisplacement"] as? Int == 0)
            // Sent once; the phone's next message acknowledges it.
            #expect(try await post(mode: 2).isEmpty)
            let acknowledged = try await waitForWanted("move", "Zoë", on: server)
            #expect(
                acknowledged["sent"] as? String == "move" && acknowledged["reported"] as? String == "move",
                "\(acknowledged)")

            #expect(try await server.client.request("POST", "/v1/runs/\(run)/stop").status == 200)
            _ = try await waitForWanted("significant", "Zoë", on: server)
            let significant = try await post(mode: 2)
            #expect(
                (significant.first?["configuration"] as? [String: Any])?["monitoring"] as? Int == 1, "\(significant)")
            #expect(try await post(mode: 1).isEmpty)
            let back = try await waitForWanted("significant", "Zoë", on: server)
            #expect(back["sent"] as? String == "significant" && back["reported"] as? String == "significant", "\(back)")
        }
    }
}
