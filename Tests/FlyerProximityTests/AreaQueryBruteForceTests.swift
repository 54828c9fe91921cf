import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

/// Area queries (within, intersects, bbox, near_line) over generated flyers, on both backends through the cache
/// (the packed index with flyers written since on top) and through the database without it, against a brute-force
/// geodesic check written apart from the search: containment by the winding of geodesic azimuths, areas by dense
/// samples of their edges, distances to a route by golden-section search along each geodesic edge.
@Suite("area queries agree with a brute-force geodesic check on SpatiaLite and PostGIS")
struct AreaQueryBruteForceTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test(
        "160 queries over 6,000 flyers (clusters at ±180° and the poles, 10 % areas): same ids, pages, distances",
        arguments: FlyerBackend.allCases)
    func agree(_ backend: FlyerBackend) async throws {
        var workload = FlyerWorkload(
            .init(
                seed: 91, uniformShare: 0.05, areaShare: 0.1, includePolar: true, inactiveShare: 0.2,
                referenceTime: Self.now))
        var flyers = (0..<6000).map { workload.flyer(number: $0) }
        try await backend.withStore { store in
            try await store.write(flyers, mode: .create)
            let catalog = FlyerCatalog(store: store)
            try await catalog.load()
            // Some flyers changed since the packed index was built: they lie on top of it.
            let rewritten = (0..<300).map { number -> Flyer in
                var flyer = workload.flyer(number: 6000 + number)
                flyer.id = flyers[number * 20].id
                return flyer
            }
            try await catalog.write(rewritten, mode: .upsert)
            for flyer in rewritten { flyers[flyers.firstIndex { $0.id == flyer.id } ?? 0] = flyer }
            for index in stride(from: 5, to: 6000, by: 97) { _ = try await catalog.delete(id: flyers[index].id) }
            flyers = flyers.enumerated().filter { $0.offset < 5 || ($0.offset - 5) % 97 != 0 }.map(\.element)
            let prepared = flyers.map(Reference.Candidate.init)
            let searchers: [(String, any FlyerSearching)] = [
                ("cache", try catalog.searcher()), ("database", catalog.databaseSearch)
            ]
            for number in 0..<160 {
                let (query, oracle) = try Self.query(number, &workload)
                let expected = oracle.matches(prepared, query: query)
                for (name, searcher) in searchers {
                    let context = Comment(rawValue: "\(backend) \(name), query \(number): \(oracle.description)")
                    let page = try await searcher.area(query)
                    #expect(!page.hasMore, context)
                    let ids = page.matches.map(\.flyer.id)
                    try #require(Set(ids).subtracting(expected.ambiguous) == expected.ids, context)
                    #expect(
                        ids == page.matches.sorted { $0.position.precedes($1.distance, $1.flyer.id) }.map(\.flyer.id))
                    for match in page.matches {
                        // The samples find a route through an area only near it (their spacing): 0 then.
                        if let distance = expected.distances[match.flyer.id], match.distance > 0 || distance > 1 {
                            #expect(abs(match.distance - distance) < 0.01, context)
                        }
                    }
                    if number % 8 == 0 {
                        var paged: [String] = []
                        var small = query
                        small.limit = 7
                        while true {
                            let next = try await searcher.area(small)
                            paged += next.matches.map(\.flyer.id)
                            guard next.hasMore, let last = next.matches.last else { break }
                            small.after = last.position
                        }
                        #expect(paged == ids, context)
                    }
                }
            }
        }
    }

    /// Query `number`: within, intersects, a viewport or a route around a point of the workload.
    static func query(_ number: Int, _ workload: inout FlyerWorkload) throws -> (AreaQuery, Reference) {
        let center = workload.queryPoint()
        let includeInactive = number % 3 == 0
        let category = number % 7 == 0 ? FlyerWorkload.categories[number % FlyerWorkload.categories.count] : nil
        let make = { (kind: AreaQuery.Kind) in
            AreaQuery(
                kind, limit: 100_000, category: category, at: Self.now, includeInactive: includeInactive)
        }
        switch number % 4 {
        case 0, 1:
            let radius = 300 * pow(100, workload.unit())
            let count = 12 + Int(workload.unit() * 30)
            let bearings = (0..<count).map { Double($0) * 360 / Double(count) }
            let outer = try bearings.map { bearing in
                try Geodesic.wgs84.direct(
                    from: center, bearing: bearing, distance: radius * (0.7 + 0.3 * workload.unit())
                )
                .destination
            }
            var rings = [outer + [outer[0]]]
            if number % 3 == 1 {
                let hole = try bearings.reversed().map { bearing in
                    try Geodesic.wgs84.direct(
                        from: center, bearing: bearing, distance: radius * 0.3 * (0.5 + 0.5 * workload.unit())
                    ).destination
                }
                rings.append(hole + [hole[0]])
            }
            let polygon = try QueryPolygon([rings], field: "within")
            let reference = Reference(
                shape: .polygon(rings, within: number % 4 == 0), filter: (category, includeInactive))
            return (make(number % 4 == 0 ? .within(polygon) : .intersects(polygon)), reference)
        case 2:
            let halfWidth = 0.02 + workload.unit() * 0.5, halfHeight = 0.02 + workload.unit() * 0.3
            let west = Geodesic.normalizedLongitude(center.longitude - halfWidth)
            let east = Geodesic.normalizedLongitude(center.longitude + halfWidth)
            let south = max(-90, center.latitude - halfHeight), north = min(90, center.latitude + halfHeight)
            let box = try #require(QueryBox(west: west, south: south, east: east, north: north))
            return (make(.box(box)), Reference(shape: .box(box), filter: (category, includeInactive)))
        default:
            var positions = [center]
            for _ in 0..<(1 + Int(workload.unit() * 4)) {
                let last = positions[positions.count - 1]
                positions.append(
                    try Geodesic.wgs84.direct(
                        from: last, bearing: workload.unit() * 360, distance: 500 + 8000 * workload.unit()
                    )
                    .destination)
            }
            let buffer = 50 + 3000 * workload.unit()
            return (
                make(.nearLine(QueryLine(positions, buffer: buffer))),
                Reference(shape: .line(positions, buffer: buffer), filter: (category, includeInactive))
            )
        }
    }
}

/// The brute-force check: every flyer, each shape measured without the search's code.
struct Reference: CustomStringConvertible {
    enum Shape {
        case polygon([[Coordinate]], within: Bool)
        case box(QueryBox)
        case line([Coordinate], buffer: Double)
    }

    /// A flyer with its rings (none for a point), a vertex and how far the rest lies from it.
    struct Candidate {
        let flyer: Flyer
        let rings: [[[Coordinate]]]
        let first: Coordinate
        let extent: Double

        init(_ flyer: Flyer) {
            self.flyer = flyer
            rings = flyer.geometry.polygons
            switch flyer.geometry {
            case .point(let point):
                first = point
                extent = 0
            case .polygon, .multiPolygon:
                let vertices = rings.flatMap { $0.flatMap { $0 } }
                first = vertices[0]
                extent = vertices.reduce(0) { max($0, Geodesic.wgs84.distance(vertices[0], $1)) } * 2
            }
        }

        /// Points along every edge of the area (every vertex and 31 between each two), or the point.
        var samples: [Coordinate] {
            guard !rings.isEmpty else { return [first] }
            return rings.flatMap { $0.flatMap { Reference.densify($0, steps: 32) } }
        }
    }

    let shape: Shape
    let filter: (category: String?, includeInactive: Bool)

    var description: String {
        switch shape {
        case .polygon(let rings, let within):
            return
                "\(within ? "within" : "intersects") \(rings[0].count - 1) vertices, \(rings.count - 1) holes around \(rings[0][0])"
        case .box(let box): return "bbox \(box.west),\(box.south),\(box.east),\(box.north)"
        case .line(let positions, let buffer): return "near_line \(positions.count) positions, buffer \(buffer) m"
        }
    }

    /// The ids matched, distances for a route, and ids too near the route's buffer to judge (within 1 cm).
    func matches(_ candidates: [Candidate], query: AreaQuery) -> (
        ids: Set<String>, distances: [String: Double], ambiguous: Set<String>
    ) {
        var ids = Set<String>(), distances: [String: Double] = [:], ambiguous = Set<String>()
        let admits = FlyerFilter(
            category: filter.category, at: AreaQueryBruteForceTests.now, includeInactive: filter.includeInactive)
        for candidate in candidates where admits.admits(candidate.flyer) {
            if Geodesic.wgs84.distance(query.anchor, candidate.first) - candidate.extent > query.reach + 1 { continue }
            let id = candidate.flyer.id
            switch shape {
            case .polygon(let rings, let within):
                let inside = candidate.samples.map { Self.inside($0, rings) }
                let queryInFlyer = Self.densify(rings.flatMap { $0 }, steps: 8).contains { point in
                    candidate.rings.contains { Self.inside(point, $0) }
                }
                let matched = within ? inside.allSatisfy { $0 } && !queryInFlyer : inside.contains(true) || queryInFlyer
                if matched { ids.insert(id) }
            case .box(let box):
                let matched =
                    candidate.samples.contains(where: box.contains)
                    || candidate.rings.contains { Self.inside(box.center, $0) }
                if matched { ids.insert(id) }
            case .line(let positions, let buffer):
                let distance = Self.distance(candidate, positions)
                if abs(distance - buffer) < 0.01 {
                    ambiguous.insert(id)
                } else if distance <= buffer {
                    ids.insert(id)
                    distances[id] = distance
                }
            }
        }
        return (ids, distances, ambiguous)
    }

    /// Inside a polygon's outer ring and outside its holes, by the winding of geodesic azimuths from `point` (which
    /// does not tell a ring's side from the other: the test's shapes are small, so the point must also lie within
    /// 10,000 km of the ring).
    static func inside(_ point: Coordinate, _ rings: [[Coordinate]]) -> Bool {
        func winds(_ ring: [Coordinate]) -> Bool {
            var turn = 0.0
            var previous = Geodesic.wgs84.inverse(from: point, to: ring[0]).initialBearing
            for vertex in ring.dropFirst() {
                let bearing = Geodesic.wgs84.inverse(from: point, to: vertex).initialBearing
                turn += wrappedLongitudeDifference(bearing - previous)
                previous = bearing
            }
            return abs(turn) > 180
        }
        guard let outer = rings.first, Geodesic.wgs84.distance(point, outer[0]) < 10_000_000, winds(outer) else {
            return false
        }
        return !rings.dropFirst().contains(where: winds)
    }

    /// The ring's vertices and `steps - 1` points along each geodesic edge between them.
    static func densify(_ ring: [Coordinate], steps: Int) -> [Coordinate] {
        var points: [Coordinate] = []
        for (start, end) in zip(ring, ring.dropFirst()) {
            let inverse = Geodesic.wgs84.inverse(from: start, to: end)
            for step in 0..<steps {
                let along = inverse.distance * Double(step) / Double(steps)
                if let point = try? Geodesic.wgs84.direct(from: start, bearing: inverse.initialBearing, distance: along)
                    .destination
                {
                    points.append(point)
                }
            }
        }
        return points + ring.suffix(1)
    }

    /// The distance from a flyer to a route: 0 when the route enters its area, else the least distance from a
    /// sample of one to the edges of the other.
    static func distance(_ candidate: Candidate, _ positions: [Coordinate]) -> Double {
        let route = densify(positions, steps: 32)
        if candidate.rings.contains(where: { polygon in route.contains { inside($0, polygon) } }) { return 0 }
        var best = candidate.samples.reduce(Double.infinity) { best, point in
            zip(positions, positions.dropFirst()).reduce(best) { min($0, edgeDistance(point, $1.0, $1.1)) }
        }
        for polygon in candidate.rings {
            for ring in polygon {
                for (start, end) in zip(ring, ring.dropFirst()) {
                    best = positions.reduce(best) { min($0, edgeDistance($1, start, end)) }
                }
            }
        }
        return best
    }

    /// The least geodesic distance from `point` to the geodesic from `start` to `end`, by golden-section search.
    static func edgeDistance(_ point: Coordinate, _ start: Coordinate, _ end: Coordinate) -> Double {
        let inverse = Geodesic.wgs84.inverse(from: start, to: end)
        func at(_ along: Double) -> Double {
            guard
                let here = try? Geodesic.wgs84.direct(from: start, bearing: inverse.initialBearing, distance: along)
                    .destination
            else { return .infinity }
            return Geodesic.wgs84.distance(point, here)
        }
        let ratio = (5.0.squareRoot() - 1) / 2
        var low = 0.0, high = inverse.distance
        var a = high - ratio * (high - low), b = low + ratio * (high - low)
        var fa = at(a), fb = at(b)
        while high - low > 1e-5 {
            if fa < fb {
                high = b
                b = a
                fb = fa
                a = high - ratio * (high - low)
                fa = at(a)
            } else {
                low = a
                a = b
                fa = fb
                b = low + ratio * (high - low)
                fb = at(b)
            }
        }
        return min(at((low + high) / 2), at(0), at(inverse.distance))
    }
}
