import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

@Suite("Routes: runs on the same path in the same direction")
struct RouteTests {
    static func routes(_ fixture: HistoryFixture, minimumRuns: Int = 1) async throws -> [Route] {
        try await fixture.store.database.read { db in try RouteBook.list(minimumRuns: minimumRuns, in: db) }
    }

    static func routeIDs(_ fixture: HistoryFixture) async throws -> [String: Int64] {
        try await fixture.store.database.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT run_id, route_id FROM run_tracks").map {
                    ($0[0], $0[1])
                })
        }
    }

    @Test(
        "three runs of a loop at different speeds form one route; the loop run the other way and a different loop do not join"
    )
    func grouping() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        for (index, speed) in [3.0, 3.3, 3.6].enumerated() {
            try fixture.insert(Courses.run("loop-\(index)", day: index, speed: speed, seed: UInt64(10 + index)))
        }
        try fixture.insert(Courses.run("reversed", on: Courses.reversed, day: 3, speed: 3.3, seed: 20))
        try fixture.insert(Courses.run("other", on: Courses.other, day: 4, speed: 3.3, seed: 21))
        try fixture.insert(Courses.run("reversed-2", on: Courses.reversed, day: 5, speed: 3.1, seed: 22))
        let ids = try await Self.routeIDs(fixture)
        #expect(Set(["loop-0", "loop-1", "loop-2"].map { ids[$0] }).count == 1)
        #expect(ids["reversed"] != ids["loop-0"] && ids["other"] != ids["loop-0"] && ids["other"] != ids["reversed"])
        #expect(ids["reversed-2"] == ids["reversed"])

        let routes = try await Self.routes(fixture)
        #expect(routes.count == 3)
        let loop = try #require(routes.first { $0.id == ids["loop-0"] })
        #expect(loop.runCount == 3)
        #expect(loop.best.runID == "loop-2")  // the fastest
        #expect(loop.latest.runID == "loop-2")
        #expect(loop.runs.map(\.runID) == ["loop-2", "loop-1", "loop-0"])  // newest first
        #expect(loop.name == "Loop loop-0")
        let ranked = try await fixture.store.database.read { db in try RouteBook.route(id: loop.id, in: db) }
        #expect(ranked.runs.map(\.runID) == ["loop-2", "loop-1", "loop-0"] && ranked.runs.map(\.rank) == [1, 2, 3])
        #expect(try await Self.routes(fixture, minimumRuns: 2).count == 2)
        await #expect(throws: ProgressError.routeNotFound(id: "999")) {
            try await fixture.store.database.read { db in try RouteBook.route(id: 999, in: db) }
        }
    }

    @Test("deleting hides a run from its route and restoring shows it again; a purged representative hands over")
    func deletionAndRestore() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        for (index, speed) in [3.0, 3.3, 3.6].enumerated() {
            try fixture.insert(Courses.run("loop-\(index)", day: index, speed: speed, seed: UInt64(30 + index)))
        }
        let now = Fixtures.day0.addingTimeInterval(10 * 86_400)
        _ = try await fixture.history.delete(ids: ["loop-2"], now: now)
        var route = try #require(try await Self.routes(fixture).first)
        #expect(route.runs.map(\.runID) == ["loop-1", "loop-0"] && route.best.runID == "loop-1")
        _ = try await fixture.history.restore(ids: ["loop-2"], now: now)
        route = try #require(try await Self.routes(fixture).first)
        #expect(route.runCount == 3 && route.best.runID == "loop-2")

        // The route's first run is purged: the next run represents the route, and a new run still joins it.
        _ = try await fixture.history.delete(ids: ["loop-0"], now: now)
        try await fixture.history.purgeExpired(now: now.addingTimeInterval(31 * 86_400))
        try fixture.insert(Courses.run("loop-3", day: 50, speed: 3.2, seed: 40))
        let routes = try await Self.routes(fixture)
        #expect(routes.count == 1)
        #expect(Set(routes.first?.runs.map(\.runID) ?? []) == ["loop-1", "loop-2", "loop-3"])
    }

    @Test(
        "rebuilding regroups every run the same way, and a tighter route_match_m splits nothing that is the same path")
    func rebuild() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        for (index, speed) in [3.0, 3.4].enumerated() {
            try fixture.insert(Courses.run("loop-\(index)", day: index, speed: speed, seed: UInt64(50 + index)))
        }
        try fixture.insert(Courses.run("other", on: Courses.other, day: 2, speed: 3.3, seed: 52))
        let before = try await Self.routes(fixture).map { Set($0.runs.map(\.runID)) }
        let count = try await fixture.store.database.write { db in
            try RouteBook.rebuild(matcher: RouteMatcher(pathDistance: 20), in: db)
        }
        #expect(count == 2)
        #expect(Set(try await Self.routes(fixture).map { Set($0.runs.map(\.runID)) }) == Set(before))
    }

    @Test("a run's start or finish more than 100 m from the route's is another route")
    func endsMustBeNear() {
        let loop = RunTrack(path: Courses.loop.path.vertices)
        let shifted = SyntheticCourse.loop(origin: Self.moved(Fixtures.origin, east: 130), width: 800, height: 1200)
        #expect(!RouteMatcher().matches(loop, RunTrack(path: shifted.path.vertices)))
        let near = SyntheticCourse.loop(origin: Self.moved(Fixtures.origin, east: 30), width: 800, height: 1200)
        #expect(RouteMatcher().matches(loop, RunTrack(path: near.path.vertices)))
        #expect(!RouteMatcher(pathDistance: 20).matches(loop, RunTrack(path: near.path.vertices)))
    }

    static func moved(_ coordinate: Coordinate, east: Double) -> Coordinate {
        (try? Geodesic.wgs84.direct(from: coordinate, bearing: 90, distance: east).destination) ?? coordinate
    }

    @Test("the discrete Fréchet decision respects direction and its limit")
    func frechet() {
        let line = (0...100).map { Self.moved(Fixtures.origin, east: Double($0) * 10) }
        let parallel = line.map { (try? Geodesic.wgs84.direct(from: $0, bearing: 0, distance: 40).destination) ?? $0 }
        #expect(DiscreteFrechet.within(line, parallel, limit: 40.001))
        #expect(!DiscreteFrechet.within(line, parallel, limit: 39.999))
        #expect(!DiscreteFrechet.within(line, Array(line.reversed()), limit: 50))
        // A detour of 60 m in the middle of an otherwise identical path.
        var detour = line
        detour[50] = (try? Geodesic.wgs84.direct(from: line[50], bearing: 0, distance: 60).destination) ?? line[50]
        #expect(!DiscreteFrechet.within(line, detour, limit: 50))
        #expect(DiscreteFrechet.within(line, detour, limit: 60.001))
    }

    @Test(
        "the flat estimate settles only clear cases: the nearness test agrees with Karney's geodesic on 20,000 random pairs"
    )
    func nearnessAgreesWithGeodesic() {
        var random = SeededRandom(seed: 99)
        for _ in 0..<20_000 {
            let a =
                Coordinate.clamped(
                    latitude: Double.random(in: -84.9...84.9, using: &random),
                    longitude: Double.random(in: -180...180, using: &random)) ?? .zero
            let limit = Double.random(in: 1...500, using: &random)
            let distance = limit * Double.random(in: 0.99...1.01, using: &random)
            let b =
                (try? Geodesic.wgs84.direct(
                    from: a, bearing: Double.random(in: 0..<360, using: &random), distance: distance
                ).destination) ?? a
            #expect(NearnessTest(limit: limit).isNear(a, b) == (Geodesic.wgs84.distance(a, b) <= limit))
        }
    }
}
