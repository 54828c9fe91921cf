import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// Copies of a real recorded route, as the same runner would record it again on another day: every fix off by GPS
/// jitter (Gaussian, seeded) and the whole run faster or slower. A segment defined on one copy must find an effort on
/// every copy, and none on the route run the other way or on a path beside it.
@Suite("Segments under GPS noise and pace changes, on real recorded routes")
struct SegmentNoiseTests {
    /// A real route and a stretch of it run once, in one direction.
    struct Route: Sendable, CustomTestStringConvertible {
        var file: String
        var fromKm: Double
        var toKm: Double
        var testDescription: String { "\(file) km \(fromKm)–\(toKm)" }
    }

    static let routes: [Route] = [
        // Forerunner 110, smart recording (4.5 s median, ten gaps over 10 s).
        Route(file: "fit/fitparse__2013-02-06-12-11-14.fit", fromKm: 0.3, toKm: 1.6),
        // Fenix 2 at 1 Hz.
        Route(file: "fit/sportstracker__Garmin_Fenix2_running_with_hrm.fit", fromKm: 0.5, toKm: 2.5)
    ]

    /// Pace of each copy relative to the recording (1.1 takes 10 % longer).
    static let paces = [1.0, 0.9, 1.1, 0.95, 1.05, 0.9, 1.1]
    /// GPS jitter, metres (standard deviation east and north).
    static let jitter = 3.0

    /// Imports `samples` as a saved run through the tracker, as a file would be.
    static func insert(_ samples: [RecordedSample], id: String, into store: RunStore) throws {
        let recording = RecordedActivity(format: .gpx, sport: .run, startTime: samples.first?.time, samples: samples)
        #expect(try store.importRun(recording, id: id, name: id)?.summary.state == .stopped)
    }

    @Test(
        "a segment on one jittered copy finds an effort on all seven copies (3 m jitter, ±10 % pace), none reversed or 60 m aside",
        arguments: routes)
    func everyCopyHasAnEffort(route: Route) async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let recorded = try #require(try ActivityFileReader.read(contentsOf: TestData.url(route.file)).first)
        let track = RecordedTrack(recorded)
        let store = try RunStore(store: fixture.store)
        let base = Date(timeIntervalSince1970: 1_714_550_400)
        for (index, pace) in Self.paces.enumerated() {
            let start = base.addingTimeInterval(Double(index) * 86_400)
            try Self.insert(
                track.copy(start: start, pace: pace, jitter: Self.jitter, seed: UInt64(200 + index)),
                id: "copy-\(index)", into: store)
        }
        // The same path the other way round, and a path 60 m to the side of it.
        let reversed = track.copy(
            start: base.addingTimeInterval(10 * 86_400), pace: 1, jitter: Self.jitter, seed: 300, reversed: true)
        try Self.insert(reversed, id: "reversed", into: store)
        let aside = track.copy(start: base.addingTimeInterval(11 * 86_400), pace: 1, jitter: Self.jitter, seed: 301) {
            _ in 60
        }
        try Self.insert(aside, id: "aside", into: store)

        let request = SegmentRequest(
            name: "Stretch", runID: "copy-0", bounds: .kilometres(from: route.fromKm, to: route.toKm))
        let segment = try await fixture.store.database.write { db in try SegmentBook.add(request, in: db) }
        let efforts = try await fixture.store.database.read { db in try SegmentBook.efforts("Stretch", in: db) }.efforts
        let found = Set(efforts.map(\.runID))
        #expect(
            found == Set(Self.paces.indices.map { "copy-\($0)" }),
            "efforts on \(found.sorted()) of \(Self.paces.count) copies")
        #expect(efforts.count == found.count, "one effort per copy")
        #expect(!found.contains("reversed") && !found.contains("aside"))

        let reference = try #require(efforts.first { $0.runID == "copy-0" })
        // The segment is as long as the recorded path between where copy 0 (at the recording's pace) crossed its ends,
        // within 3 %: what is left of the jitter after averaging adds a little, smart recording (a fix every 4.5 s) most.
        let truth = track.length(from: reference.startOffset, to: reference.startOffset + reference.elapsedTime)
        #expect(abs(segment.distance - truth) < 0.03 * truth, "segment \(segment.distance) m, recorded path \(truth) m")

        // Each effort takes the copy's pace times the defining copy's time, within 2 %.
        for effort in efforts {
            guard let index = Int(effort.runID.dropFirst("copy-".count)) else { continue }
            let expected = reference.elapsedTime * Self.paces[index]
            #expect(
                abs(effort.elapsedTime - expected) < 0.02 * expected,
                "\(effort.runID): \(effort.elapsedTime) s, expected about \(expected) s on \(segment.distance) m")
        }
    }

    @Test(
        "GPS drifting 35 m aside for a few seconds keeps the effort; 40 m aside for a minute is another way, no effort")
    func driftAndDetour() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let route = Self.routes[1]
        let track = RecordedTrack(try #require(try ActivityFileReader.read(contentsOf: TestData.url(route.file)).first))
        let store = try RunStore(store: fixture.store)
        let base = Date(timeIntervalSince1970: 1_714_550_400)
        // Halfway along the segment (it runs from about 180 s to 950 s of the recording).
        let drift: (Double) -> Double = { second in 35 * max(0, min(1, (second - 500) / 5, (515 - second) / 5)) }
        let detour: (Double) -> Double = { second in (500...560).contains(second) ? 40 : 0 }
        for (day, id, aside) in [(0, "copy", { _ in 0 }), (1, "drift", drift), (2, "detour", detour)]
            as [(Int, String, (Double) -> Double)]
        {
            let samples = track.copy(
                start: base.addingTimeInterval(Double(day) * 86_400), pace: 1, jitter: Self.jitter,
                seed: UInt64(400 + day), aside: aside)
            try Self.insert(samples, id: id, into: store)
        }
        let request = SegmentRequest(
            name: "Stretch", runID: "copy", bounds: .kilometres(from: route.fromKm, to: route.toKm))
        try await fixture.store.database.write { db in _ = try SegmentBook.add(request, in: db) }
        let efforts = try await fixture.store.database.read { db in try SegmentBook.efforts("Stretch", in: db) }.efforts
        #expect(Set(efforts.map(\.runID)) == ["copy", "drift"])
        let times = Dictionary(efforts.map { ($0.runID, $0.elapsedTime) }, uniquingKeysWith: min)
        #expect(abs((times["drift"] ?? 0) - (times["copy"] ?? 0)) < 5, "\(times)")
    }
}

/// The positioned samples of a recording, and copies of its route as recorded again.
struct RecordedTrack {
    var times: [Double]
    var coordinates: [Coordinate]
    /// Per sample, the bearing from the last sample 10 m behind to the first 10 m ahead, degrees.
    var headings: [Double]
    var start: Date

    init(_ recording: RecordedActivity) {
        let located = recording.samples.compactMap { sample in sample.coordinate.map { (sample.time, $0) } }
        start = located.first?.0 ?? Date(timeIntervalSince1970: 0)
        times = []
        coordinates = []
        for (time, coordinate) in located where time.timeIntervalSince(start) > (times.last ?? -1) {
            times.append(time.timeIntervalSince(start))
            coordinates.append(coordinate)
        }
        let coordinates = coordinates
        headings = coordinates.indices.map { index in
            let behind = coordinates[...index].lastIndex { FlatDistance.metres($0, coordinates[index]) >= 10 } ?? 0
            let ahead =
                coordinates[index...].firstIndex { FlatDistance.metres($0, coordinates[index]) >= 10 } ?? coordinates
                .count - 1
            return Geodesic.wgs84.inverse(from: coordinates[behind], to: coordinates[ahead]).initialBearing
        }
    }

    /// Where the recording was `offset` seconds after its start (linear between samples), and its heading there.
    func position(at offset: Double) -> (Coordinate, heading: Double)? {
        guard let next = times.firstIndex(where: { $0 >= offset }) else { return nil }
        guard next > 0 else { return (coordinates[0], headings[0]) }
        let fraction = (offset - times[next - 1]) / (times[next] - times[next - 1])
        return FlatDistance.point(between: coordinates[next - 1], and: coordinates[next], fraction: fraction).map {
            ($0, headings[next - 1])
        }
    }

    /// The length of the recorded path from `start` to `end` seconds after its start, metres.
    func length(from start: Double, to end: Double) -> Double {
        let inside = times.indices.filter { times[$0] > start && times[$0] < end }.map { coordinates[$0] }
        let points = [position(at: start)?.0].compactMap { $0 } + inside + [position(at: end)?.0].compactMap { $0 }
        return zip(points, points.dropFirst()).reduce(0) { $0 + Geodesic.wgs84.distance($1.0, $1.1) }
    }

    /// The route run again from `start` taking `pace` times as long, sampled with the recording's own intervals
    /// (repeated when the copy takes longer), each fix moved by Gaussian `jitter` metres east and north; run the other
    /// way round when `reversed`, and `aside(seconds)` metres to the right of the route.
    func copy(
        start: Date, pace: Double, jitter: Double, seed: UInt64, reversed: Bool = false,
        aside: (Double) -> Double = { _ in 0 }
    ) -> [RecordedSample] {
        var random = SeededRandom(seed: seed)
        let intervals = zip(times, times.dropFirst()).map { $1 - $0 }
        let duration = (times.last ?? 0) * pace
        var samples: [RecordedSample] = []
        var elapsed = 0.0
        var step = 0
        while elapsed <= duration, !intervals.isEmpty {
            let offset = elapsed / pace
            if let located = position(at: reversed ? (times.last ?? 0) - offset : offset) {
                var position = located.0
                let metres = aside(elapsed)
                if metres != 0 {
                    position =
                        (try? Geodesic.wgs84.direct(from: position, bearing: located.heading + 90, distance: metres)
                            .destination) ?? position
                }
                let east = random.gaussian(sigma: jitter), north = random.gaussian(sigma: jitter)
                let moved = try? Geodesic.wgs84.direct(
                    from: position, bearing: atan2(east, north) * 180 / .pi,
                    distance: (east * east + north * north).squareRoot())
                samples.append(
                    RecordedSample(time: start.addingTimeInterval(elapsed), coordinate: moved?.destination ?? position))
            }
            elapsed += intervals[step % intervals.count]
            step += 1
        }
        return samples
    }
}
