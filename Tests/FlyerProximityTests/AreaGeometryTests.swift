import Foundation
import MeridianCore
import Testing

@testable import FlyerProximity

/// Area queries on known shapes: holes, ±180°, a pole, a self-crossing ring, viewports and routes.
@Suite("area query geometry")
struct AreaGeometryTests {
    static func point(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate.clamped(latitude: latitude, longitude: longitude) ?? .zero
    }

    /// A closed ring through `corners` given as (lat, lon).
    static func ring(_ corners: [(Double, Double)]) -> [Coordinate] {
        let ring = corners.map { point($0.0, $0.1) }
        return ring + [ring[0]]
    }

    static func polygon(_ rings: [[Coordinate]]) throws -> QueryPolygon {
        try QueryPolygon([rings], field: "within")
    }

    static func area(_ rings: [[Coordinate]]) throws -> AreaShape {
        try #require(AreaShape([rings]))
    }

    @Test("a hole is outside: points in it are not within, an area across its edge touches but is not within")
    func hole() throws {
        let outer = Self.ring([(48.80, 2.20), (48.80, 2.50), (48.92, 2.50), (48.92, 2.20)])
        let hole = Self.ring([(48.84, 2.30), (48.84, 2.40), (48.88, 2.40), (48.88, 2.30)])
        let query = try Self.polygon([outer, hole])
        #expect(query.contains(Self.point(48.82, 2.25)))
        #expect(!query.contains(Self.point(48.86, 2.35)))
        let inside = try Self.area([Self.ring([(48.81, 2.21), (48.81, 2.25), (48.83, 2.25), (48.83, 2.21)])])
        #expect(query.covers(inside) && query.meets(inside))
        let acrossHoleEdge = try Self.area([Self.ring([(48.85, 2.28), (48.85, 2.32), (48.86, 2.32), (48.86, 2.28)])])
        #expect(!query.covers(acrossHoleEdge) && query.meets(acrossHoleEdge))
        let inHole = try Self.area([Self.ring([(48.85, 2.33), (48.85, 2.36), (48.86, 2.36), (48.86, 2.33)])])
        #expect(!query.covers(inHole) && !query.meets(inHole))
        let aroundHole = try Self.area([Self.ring([(48.83, 2.29), (48.83, 2.41), (48.89, 2.41), (48.89, 2.29)])])
        #expect(!query.covers(aroundHole) && query.meets(aroundHole), "the hole lies inside the flyer")
    }

    @Test("a polygon across ±180° holds points on both sides and not those on the far side of the Earth")
    func antimeridian() throws {
        let query = try Self.polygon([Self.ring([(-17, 179.5), (-17, -179.5), (-16, -179.5), (-16, 179.5)])])
        #expect(query.contains(Self.point(-16.5, 179.9)) && query.contains(Self.point(-16.5, -179.9)))
        #expect(!query.contains(Self.point(-16.5, 0)) && !query.contains(Self.point(-16.5, 179.4)))
        let across = try Self.area([Self.ring([(-16.6, 179.8), (-16.6, -179.8), (-16.4, -179.8), (-16.4, 179.8)])])
        #expect(query.covers(across))
    }

    @Test("a ring around the north pole holds the pole and what is north of it (geodesic edges bulge poleward)")
    func pole() throws {
        let corners = stride(from: -180.0, to: 180, by: 30).map { (80.0, $0) }
        let query = try Self.polygon([Self.ring(corners)])
        #expect(query.contains(Self.point(90, 0)) && query.contains(Self.point(85, 17)))
        #expect(!query.contains(Self.point(79, 0)))
        // Between two vertices 30° apart at 80°, the geodesic reaches about 80.34°: 80.2° is outside there.
        #expect(!query.contains(Self.point(80.2, 15)) && query.contains(Self.point(80.2, 0.5)))
        let cap = try Self.area([Self.ring(stride(from: -180.0, to: 180, by: 60).map { (88.0, $0) })])
        #expect(query.covers(cap))
    }

    @Test("a self-crossing ring is refused naming the edges and where; a hole touching its outer ring too")
    func selfIntersection() throws {
        let bowtie = Self.ring([(0, 0), (1, 1), (1, 0), (0, 1)])
        let error = #expect(throws: AreaQueryError.self) { try Self.polygon([bowtie]) }
        #expect(error?.field == "within")
        #expect(error?.message.contains("crosses itself") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("coordinates[0][0]") == true, "\(error?.message ?? "")")
        let outer = Self.ring([(0, 0), (0, 2), (2, 2), (2, 0)])
        let crossingHole = Self.ring([(1, 1), (1, 3), (1.5, 3), (1.5, 1)])
        #expect(throws: AreaQueryError.self) { try Self.polygon([outer, crossingHole]) }
        _ = try Self.polygon([outer, Self.ring([(0.5, 0.5), (0.5, 1), (1, 1), (1, 0.5)])])
    }

    @Test("a viewport across ±180°; an area whose edge alone crosses it; one that holds it")
    func viewport() throws {
        let box = try AreaRequest.box("170,-20,-170,-10")
        #expect(box.contains(Self.point(-15, 175)) && box.contains(Self.point(-15, -175)))
        #expect(!box.contains(Self.point(-15, 0)) && !box.contains(Self.point(-25, 175)))
        let narrow = try AreaRequest.box("2.30,48.85,2.31,48.86")
        let crossing = try Self.area([Self.ring([(48.80, 2.304), (48.80, 2.306), (48.90, 2.306), (48.90, 2.304)])])
        #expect(narrow.meets(crossing), "no vertex in the box, an edge through it")
        let holding = try Self.area([Self.ring([(48.0, 2.0), (48.0, 3.0), (49.0, 3.0), (49.0, 2.0)])])
        #expect(narrow.meets(holding))
        let beside = try Self.area([Self.ring([(48.80, 2.32), (48.80, 2.33), (48.90, 2.33), (48.90, 2.32)])])
        #expect(!narrow.meets(beside))
        // The geodesic from (60°, 0°) to (60°, 90°) bulges to about 67.79° at 45° E and is at about 67.72° at 40° E
        // and 50° E: a box from 67.75° to 67.85° meets it only at its vertex, one beyond the vertex not at all.
        let edge = GeodesicEdge(from: Self.point(60, 0), to: Self.point(60, 90))
        let atVertex = try AreaRequest.box("40,67.75,50,67.85"), beyond = try AreaRequest.box("40,67.9,50,68")
        #expect(edge.meets(atVertex) && !edge.meets(beyond))
    }

    @Test(
        "bbox and body errors name the field and what to do",
        arguments: [
            ("1,2,3", "four numbers"), ("0,50,1,40", "south 50.0 is north of north 40.0"),
            ("0,95,1,96", "latitude 95.0 is outside"), ("190,0,191,1", "west longitude 190.0 is outside")
        ])
    func boxErrors(text: String, expected: String) {
        let error = #expect(throws: AreaQueryError.self) { try AreaRequest.box(text) }
        #expect(error?.field == "bbox")
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test("body errors: two queries at once, no buffer, too many positions, a Point")
    func bodyErrors() {
        func error(_ body: String) -> AreaQueryError? {
            #expect(throws: AreaQueryError.self) {
                try AreaRequest.query(body: Data(body.utf8), defaultLimit: 20, maximumLimit: 200)
            }
        }
        let square = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#
        #expect(error(#"{"within":\#(square),"intersects":\#(square)}"#)?.message.contains("exactly one") == true)
        #expect(error(#"{"near_line":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#)?.field == "buffer_m")
        let many = (0...AreaRequest.maximumPositions).map { "[\(Double($0) * 1e-5),0]" }.joined(separator: ",")
        #expect(
            error(#"{"near_line":{"type":"LineString","coordinates":[\#(many)]},"buffer_m":5}"#)?.message
                .contains("the limit is 10000") == true)
        #expect(error(#"{"within":{"type":"Point","coordinates":[0,0]}}"#)?.field == "within.type")
        #expect(error(#"{"within":\#(square),"limit":0}"#)?.field == "limit")
        #expect(
            error(#"{"within":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1]]]}}"#)?.field
                == "within.coordinates[0]")
    }

    @Test("a route's buffer: a point 100 m off it is found with 150 m, not with 50 m, at its geodesic distance")
    func route() throws {
        let start = Self.point(48.85, 2.30), end = Self.point(48.85, 2.40)
        let leg = Geodesic.wgs84.inverse(from: start, to: end)
        let middle = try Geodesic.wgs84.direct(from: start, bearing: leg.initialBearing, distance: 3000)
        let off = try Geodesic.wgs84.direct(from: middle.destination, bearing: middle.finalBearing - 90, distance: 100)
            .destination
        let line = QueryLine([start, end], buffer: 150)
        let distance = line.distance(to: off)
        #expect(abs(distance - 100) < 0.5, "\(distance)")
        let query = AreaQuery(.nearLine(line), limit: 10)
        #expect(query.match(.point(off)) != nil)
        #expect(AreaQuery(.nearLine(QueryLine([start, end], buffer: 50)), limit: 10).match(.point(off)) == nil)
        let crossed = try Self.area([Self.ring([(48.84, 2.35), (48.84, 2.36), (48.86, 2.36), (48.86, 2.35)])])
        #expect(line.distance(to: crossed) == 0)
    }
}
