import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// An attacker holds 100 exports of runs that all start at the same door and tries to find it: from where each
/// track becomes visible (their centre, and the circle through them) and from the distance each export says was run
/// before that point (multilateration, the attack that found Strava users' homes).
@Suite("Privacy zones: 100 exports of runs from one door do not reveal it")
struct PrivacyBruteForceTests {
    static let door = try! Coordinate(latitude: 48.137, longitude: 11.575)
    static let plane = LocalPlane(origin: door)

    /// 100 runs of 3 km from the door, one every 3.6° of bearing (±1.8°), each wavering a little, at 3 m/s.
    static func runs() throws -> [(RunSummary, [TrackPoint])] {
        var random = SeededRandom(seed: 28)
        return try (0..<100).map { index in
            let bearing = Double(index) * 3.6 + Double.random(in: -1.8...1.8, using: &random)
            let start = Date(timeIntervalSince1970: 1_714_550_400 + Double(index) * 86_400)
            var points: [TrackPoint] = []
            var position = door, distance = 0.0
            for step in 0...600 {
                if step > 0 {
                    let heading = bearing + 10 * sin(Double(step) / 15)
                    position = try Geodesic.wgs84.direct(from: position, bearing: heading, distance: 5).destination
                    distance += 5
                }
                points.append(
                    TrackPoint(
                        sequence: step, time: start.addingTimeInterval(Double(step) * 5 / 3), coordinate: position,
                        altitude: 520, speed: 3, horizontalAccuracy: 4, distance: distance))
            }
            let run = RunSummary(
                id: "r\(index)", name: "Run \(index)", activity: .run, state: .stopped, startedAt: start,
                endedAt: points.last?.time, distance: distance, elapsedTime: 1000, timerTime: 1000, movingTime: 1000,
                pointCount: points.count, segmentCount: 1, distanceSource: .gps)
            return (run, points)
        }
    }

    /// What one export shows of where its track appears: the position, and three readings of how far was run
    /// before it: the distance the file gives there, the time from the file's start to it at the visible stretch's
    /// pace, and the file's total distance less the visible track's length.
    struct Seen {
        var x: Double
        var y: Double
        var distance: Double
        var fromStartTime: Double
        var fromTotals: Double
    }

    /// What each export shows (see `Seen`).
    static func firstVisible(_ runs: [(RunSummary, [TrackPoint])], zones: PrivacyZones) throws -> [Seen] {
        try runs.map { run, points in
            let file = ExportFormat.tcx.file(run: run, points: points, privacy: zones)
            let recording = try #require(try ActivityFileReader.read(file, file: "run.tcx").first)
            let first = try #require(recording.samples.first), last = try #require(recording.samples.last)
            let (x, y) = plane.project(try #require(first.coordinate))
            let visibleLength = try #require(last.distance) - (try #require(first.distance))
            let pace = visibleLength / last.time.timeIntervalSince(first.time)
            let start = try #require(recording.startTime)
            return Seen(
                x: x, y: y, distance: try #require(first.distance),
                fromStartTime: first.time.timeIntervalSince(start) * pace,
                fromTotals: try #require(recording.totals?.distance) - visibleLength)
        }
    }

    /// The attacker's estimates of the door, metres from it: the centre of the first visible positions, the circle
    /// fitted through them (Kåsa), and the point whose distance to each first visible position best matches how far
    /// its export says was run there (multilateration), by each reading of `Seen`.
    static func estimateErrors(_ seen: [Seen]) -> [String: Double] {
        let n = Double(seen.count)
        let mean = (x: seen.map(\.x).reduce(0, +) / n, y: seen.map(\.y).reduce(0, +) / n)
        let circle = kasa(seen)
        func multilateration(_ reading: KeyPath<Seen, Double>) -> (x: Double, y: Double) {
            var guess = mean
            for _ in 0..<500 {
                var next = (x: 0.0, y: 0.0)
                for p in seen {
                    let dx = guess.x - p.x, dy = guess.y - p.y
                    let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
                    next.x += p.x + p[keyPath: reading] * dx / length
                    next.y += p.y + p[keyPath: reading] * dy / length
                }
                guess = (next.x / n, next.y / n)
            }
            return guess
        }
        let off = { (point: (x: Double, y: Double)) in (point.x * point.x + point.y * point.y).squareRoot() }
        return [
            "centre of first visible points": off(mean),
            "circle fit": off(circle),
            "multilateration from distances": off(multilateration(\.distance)),
            "multilateration from the start time and pace": off(multilateration(\.fromStartTime)),
            "multilateration from the total distance": off(multilateration(\.fromTotals))
        ]
    }

    /// The centre of the circle fitted through the points (Kåsa: x² + y² = a·x + b·y + c in least squares; the centre
    /// is (a/2, b/2)).
    static func kasa(_ seen: [Seen]) -> (x: Double, y: Double) {
        var m = [[Double]](repeating: [0, 0, 0], count: 3), v = [0.0, 0, 0]
        for p in seen {
            let row = [p.x, p.y, 1.0], target = p.x * p.x + p.y * p.y
            for i in 0..<3 {
                v[i] += row[i] * target
                for j in 0..<3 { m[i][j] += row[i] * row[j] }
            }
        }
        let solution = solve3(m, v)
        return (solution[0] / 2, solution[1] / 2)
    }

    static func solve3(_ m: [[Double]], _ v: [Double]) -> [Double] {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        return (0..<3).map { column in
            det(m.enumerated().map { r, row in row.indices.map { $0 == column ? v[r] : row[$0] } }) / d
        }
    }

    @Test("a stored 300 m zone (secret drawn from the system's cryptographic source): every estimate misses by > 100 m")
    func storedZoneHidesTheDoor() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try await fixture.store.database.write { db in
            try PrivacyBook.add(name: "home", centre: Self.door, radius: 300, in: db)
        }
        let zones = try await fixture.history.privacyZones()
        let seen = try Self.firstVisible(try Self.runs(), zones: zones)
        #expect(seen.allSatisfy { $0.distance == 0 })
        for (estimator, error) in Self.estimateErrors(seen) {
            #expect(error > 100, "\(estimator) found the door within \(error) m")
        }
    }

    @Test(
        "known limit: when runs leave the door evenly in every direction, twice the centre less the circle's finds it")
    func evenDirectionsLimit() throws {
        let secret = PrivacyZone(
            name: "home", centre: Self.door, radius: 300, source: .command,
            secret: ZoneSecret(offsetNorth: 250, offsetEast: 90, jitter: 60))
        let seen = try Self.firstVisible(try Self.runs(), zones: PrivacyZones(zones: [secret]))
        // The points where radial runs leave a circle are centred half way between the door and the circle's centre.
        #expect(Self.combinedError(seen) < 20)
    }

    /// The error of 2 × (centre of the first visible points) − (centre of the circle fitted through them).
    static func combinedError(_ seen: [Seen]) -> Double {
        let n = Double(seen.count)
        let mean = (x: seen.map(\.x).reduce(0, +) / n, y: seen.map(\.y).reduce(0, +) / n)
        let circle = kasa(seen)
        let x = 2 * mean.x - circle.x, y = 2 * mean.y - circle.y
        return (x * x + y * y).squareRoot()
    }

    @Test(
        "the attack works: without the secret the circle gives the door away, and so do the distances and times as run")
    func attackCanSucceed() throws {
        let runs = try Self.runs()
        let bare = PrivacyZone(
            name: "home", centre: Self.door, radius: 300, source: .command,
            secret: ZoneSecret(offsetNorth: 0, offsetEast: 0, jitter: 0))
        let errors = Self.estimateErrors(try Self.firstVisible(runs, zones: PrivacyZones(zones: [bare])))
        #expect(try #require(errors["centre of first visible points"]) < 20)
        #expect(try #require(errors["circle fit"]) < 20)
        // With the secret but the distances as run (what an export would say without leaving the zone's distance
        // out), multilateration finds the door.
        let secret = PrivacyZone(
            name: "home", centre: Self.door, radius: 300, source: .command,
            secret: ZoneSecret(offsetNorth: 150, offsetEast: 90, jitter: 60))
        let zones = PrivacyZones(zones: [secret])
        // So does the time from the run's start to where its track appears, at its pace (what an export that cut
        // the points only, keeping the run's start time and totals, gave away).
        let asRun = try runs.map { run, points in
            let first = try #require(points.first { !zones.hides($0.coordinate ?? Self.door) })
            let (x, y) = Self.plane.project(try #require(first.coordinate))
            let distance = try #require(first.distance)
            return Seen(
                x: x, y: y, distance: distance, fromStartTime: first.time.timeIntervalSince(run.startedAt) * 3,
                fromTotals: distance)
        }
        let asRunErrors = Self.estimateErrors(asRun)
        #expect(try #require(asRunErrors["multilateration from distances"]) < 20)
        #expect(try #require(asRunErrors["multilateration from the start time and pace"]) < 20)
        #expect(try #require(Self.estimateErrors(try Self.firstVisible(runs, zones: zones))["circle fit"]) > 100)
    }
}
