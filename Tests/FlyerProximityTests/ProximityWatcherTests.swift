import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("flyer.enter and flyer.exit events")
struct ProximityWatcherTests {
    @Test(
        "enter inside the radius or area, exit only beyond the hysteresis, nothing for small moves",
        arguments: FlyerBackend.allCases)
    func enterAndExit(_ backend: FlyerBackend) async throws {
        try await backend.withCatalog { catalog in
            let origin = try Coordinate(latitude: 52.52, longitude: 13.405)
            let geodesic = Geodesic.wgs84
            func north(_ metres: Double) throws -> Coordinate {
                try geodesic.direct(from: origin, bearing: 0, distance: metres).destination
            }
            func east(_ metres: Double) throws -> Coordinate {
                try geodesic.direct(from: origin, bearing: 90, distance: metres).destination
            }
            let square = try [
                east(1000), east(1200), try geodesic.direct(from: east(1200), bearing: 0, distance: 200).destination,
                try geodesic.direct(from: east(1000), bearing: 0, distance: 200).destination, east(1000)
            ]
            try await catalog.write(
                [
                    Flyer(id: "shop", title: "Shop", radiusM: 100, geometry: .point(origin)),
                    Flyer(id: "park", title: "Park", geometry: .polygon([square]))
                ], mode: .create)
            let events = EventBus()
            let stream = events.subscribe()
            let watcher = ProximityWatcher(index: catalog.proximitySource, events: events, moveThreshold: 50)
            func fix(_ coordinate: Coordinate, accuracy: Double = 5) -> Fix {
                Fix(
                    time: Date(), coordinate: coordinate, horizontalAccuracy: accuracy, mode: .threeD,
                    providerID: "test")
            }
            watcher.update(fix(try north(300)))
            watcher.update(fix(try north(90)))  // inside the 100 m radius
            #expect(watcher.inside == ["shop"])
            watcher.update(fix(try north(60)))  // moved only 30 m: not re-evaluated
            watcher.update(fix(try north(150)))  // 50 m outside: beyond 100 m + 10 m hysteresis → exit
            #expect(watcher.inside.isEmpty)
            watcher.update(fix(try north(95)))  // back in
            watcher.update(fix(try north(95 + 51), accuracy: 60))  // 46 m outside, accuracy 60 m: stays in
            #expect(watcher.inside == ["shop"])
            let inPark = try geodesic.direct(from: east(1100), bearing: 0, distance: 100).destination
            watcher.update(fix(inPark))
            #expect(watcher.inside == ["park"])
            var received: [String] = []
            for await event in stream {
                let payload = try MeridianJSON.makeDecoder().decode(FlyerEvent.self, from: Data(event.json.utf8))
                received.append("\(event.name) \(payload.flyerId)")
                if received.count == 5 { break }
            }
            #expect(
                received == [
                    "flyer.enter shop", "flyer.exit shop", "flyer.enter shop", "flyer.enter park", "flyer.exit shop"
                ])
        }
    }
}
