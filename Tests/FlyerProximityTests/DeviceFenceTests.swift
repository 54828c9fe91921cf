import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("Fences per device: each device's own flyer.enter and flyer.exit")
struct DeviceFenceTests {
    static let origin = Coordinate.clamped(latitude: 52.52, longitude: 13.405) ?? .zero

    static func north(_ metres: Double) throws -> Coordinate {
        try Geodesic.wgs84.direct(from: origin, bearing: 0, distance: metres).destination
    }

    static func fix(_ metres: Double, _ source: String) throws -> Fix {
        Fix(time: Date(), coordinate: try north(metres), horizontalAccuracy: 5, mode: .threeD, providerID: source)
    }

    /// "name flyer device provider" of each event.
    static func lines(_ events: [MeridianEvent]) throws -> [String] {
        try events.map { event in
            let payload = try MeridianJSON.makeDecoder().decode(FlyerEvent.self, from: Data(event.json.utf8))
            return [event.name, payload.flyerId, payload.device ?? "-", payload.provider ?? "-"].joined(separator: " ")
        }
    }

    @Test("Two devices crossing the same flyer each get their own enter and exit; the fused fence is apart")
    func twoDevices() async throws {
        try await FlyerBackend.spatialite.withCatalog { catalog in
            try await catalog.write(
                [Flyer(id: "shop", title: "Shop", radiusM: 100, geometry: .point(Self.origin))], mode: .create)
            let events = EventBus()
            let stream = events.subscribe()
            let watcher = ProximityWatcher(index: catalog.proximitySource, events: events, moveThreshold: 20)
            watcher.update(device: try Self.fix(300, "phone/alice"))
            watcher.update(device: try Self.fix(300, "phone/bob"))
            watcher.update(device: try Self.fix(50, "phone/alice"))  // alice in
            #expect(watcher.inside(device: "phone/alice") == ["shop"])
            #expect(watcher.inside(device: "phone/bob") == [])
            #expect(watcher.inside.isEmpty)  // the fused position saw nothing
            watcher.update(device: try Self.fix(40, "phone/bob"))  // bob in, alice still in
            watcher.update(device: try Self.fix(200, "phone/alice"))  // alice out, bob still in
            #expect(watcher.inside(device: "phone/bob") == ["shop"])
            watcher.update(device: try Self.fix(60, "gps"))  // a provider that is one device
            watcher.update(device: try Self.fix(250, "phone/bob"))  // bob out
            watcher.update(try Self.fix(10, "gps"))  // the fused position in
            let received = try Self.lines(await EventCollection.first(6, of: stream, within: 10))
            #expect(
                received == [
                    "flyer.enter shop alice phone", "flyer.enter shop bob phone", "flyer.exit shop alice phone",
                    "flyer.enter shop gps gps", "flyer.exit shop bob phone", "flyer.enter shop - -"
                ])
        }
    }

    @Test("Devices that stop reporting are forgotten after a while, and at most so many are followed")
    func boundedState() async throws {
        try await FlyerBackend.spatialite.withCatalog { catalog in
            try await catalog.write(
                [Flyer(id: "shop", title: "Shop", radiusM: 100, geometry: .point(Self.origin))], mode: .create)
            let watcher = ProximityWatcher(
                index: catalog.proximitySource, events: EventBus(), moveThreshold: 20, forgetAfter: 600,
                mostDevices: 3)
            let start = Date(timeIntervalSince1970: 1_750_000_000)
            for (number, name) in ["a", "b", "c"].enumerated() {
                watcher.update(device: try Self.fix(10, "phone/\(name)"), now: start + Double(number))
            }
            #expect(watcher.devices == ["phone/a", "phone/b", "phone/c"])
            watcher.update(device: try Self.fix(10, "phone/d"), now: start + 10)  // the quietest, a, makes room
            #expect(watcher.devices == ["phone/b", "phone/c", "phone/d"])
            watcher.update(device: try Self.fix(10, "phone/d"), now: start + 700)  // b and c silent for 10 minutes
            #expect(watcher.devices == ["phone/d"])
            #expect(watcher.inside(device: "phone/b") == nil)
        }
    }

    @Test(
        "fences: both through the host: each device's fixes (before fusion) give events naming it; fused ones too",
        arguments: FlyerBackend.allCases)
    func throughTheHost(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend, options: "fences: both, move_threshold: 20") { server in
            try await server.plugin?.catalog.write(
                [Flyer(id: "shop", title: "Shop", radiusM: 100, geometry: .point(Self.origin))], mode: .create)
            let names: Set<String> = ["flyer.enter", "flyer.exit"]
            let ofDevices = server.host.events.subscribe(names: names)
            let fused = server.host.events.subscribe(names: names)
            for (alice, bob) in [(300.0, 400.0), (50, 400), (50, 30), (250, 30), (250, 300)] {
                server.host.receive(try Self.fix(alice, "scripted/alice"), from: "scripted")
                server.host.receive(try Self.fix(bob, "scripted/bob"), from: "scripted")
            }
            let received = try Self.lines(
                await EventCollection.first(4, of: ofDevices, within: 30) { $0.json.contains("\"device\"") })
            #expect(
                received == [
                    "flyer.enter shop alice scripted", "flyer.enter shop bob scripted",
                    "flyer.exit shop alice scripted",
                    "flyer.exit shop bob scripted"
                ])
            // The fused position (one source at a time, as the fusion chooses) still has its own events.
            let fusedEvents = try Self.lines(
                await EventCollection.first(1, of: fused, within: 30) { !$0.json.contains("\"device\"") })
            #expect(fusedEvents.first?.hasPrefix("flyer.enter shop - -") == true)
        }
    }

    @Test("fences: per-device leaves the fused position without events; the option is checked")
    func perDeviceOnly() async throws {
        try await FlyerServer.with(.spatialite, options: "fences: per-device, move_threshold: 20") { server in
            try await server.plugin?.catalog.write(
                [Flyer(id: "shop", title: "Shop", radiusM: 100, geometry: .point(Self.origin))], mode: .create)
            let stream = server.host.events.subscribe(names: ["flyer.enter", "flyer.exit"])
            for metres in [300.0, 50, 250] {
                server.host.receive(try Self.fix(metres, "scripted"), from: "scripted")
            }
            let received = try Self.lines(await EventCollection.first(2, of: stream, within: 30))
            #expect(received == ["flyer.enter shop scripted scripted", "flyer.exit shop scripted scripted"])
            #expect(server.plugin?.watcher.inside.isEmpty == true)
        }
        #expect(throws: (any Error).self) {
            try FlyerOptions.decode(PluginOptions(yaml: "fences: sometimes"))
        }
    }
}
