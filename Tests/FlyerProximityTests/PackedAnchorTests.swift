import MeridianCore
import Testing

@testable import FlyerProximity

@Suite("packed anchors and boxes in single precision")
struct PackedAnchorTests {
    @Test("the bound to a rounded anchor never exceeds the chord to the exact point, and is within 2 m of it")
    func boundsFromBelow() throws {
        var random = SeededRandom(seed: 48)
        func coordinate() throws -> Coordinate {
            try Coordinate(
                latitude: Double(random.next() % 1_800_000_001) / 1e7 - 90,
                longitude: Double(random.next() % 3_600_000_001) / 1e7 - 180)
        }
        for _ in 0..<20_000 {
            let point = EarthPoint(try coordinate())
            // Centres far away and very near (the same point, a metre off).
            for center in [EarthPoint(try coordinate()), point, EarthPoint(x: point.x + 1, y: point.y, z: point.z)] {
                let exact = center.chord(to: point)
                let bound = PackedAnchor(point).chordBound(from: center)
                #expect(bound <= exact && exact - bound <= 2, "\(exact) \(bound)")
            }
        }
    }

    @Test("a packed box holds the exact one: its distance from any point is at most the exact box's")
    func boxesRoundOutwards() throws {
        var random = SeededRandom(seed: 49)
        func point() throws -> EarthPoint {
            EarthPoint(
                try Coordinate(
                    latitude: Double(random.next() % 1_800_000_001) / 1e7 - 90,
                    longitude: Double(random.next() % 3_600_000_001) / 1e7 - 180))
        }
        for _ in 0..<5_000 {
            var exact = SpaceBox()
            for _ in 0..<3 { exact.include(try point(), margin: Double(random.next() % 100)) }
            let packed = PackedBox(exact)
            for center in [try point(), exact.low, exact.high] {
                let bound = packed.distance(from: center)
                #expect(bound <= exact.distance(from: center) && packed.box.distance(from: center) == bound)
            }
            #expect(packed.distance(from: exact.low) == 0 && packed.distance(from: exact.high) == 0)
        }
        #expect(PackedBox(SpaceBox()).distance(from: try point()) == .infinity)
    }
}
