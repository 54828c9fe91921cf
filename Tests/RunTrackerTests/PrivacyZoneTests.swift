import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

@Suite("Privacy zones: every export, picture and map leaves out what a zone hides; totals stay whole")
struct PrivacyZoneTests {
    /// The sample run of the export tests and a 100 m zone around its middle point, whose cut circle (secret: 60 m
    /// north, 20 m wider) has a radius of 180 m.
    static func sample() throws -> (HistoryFixture, RunSummary, [TrackPoint], PrivacyZones, HiddenCircle) {
        let (fixture, run, points) = try ExportTests.sample()
        let accepted = points.filter { $0.isAccepted && $0.coordinate != nil }
        let door = try #require(accepted[accepted.count / 2].coordinate)
        let zone = PrivacyZone(
            name: "home", centre: door, radius: 100, source: .command,
            secret: ZoneSecret(offsetNorth: 60, offsetEast: 0, jitter: 20))
        return (fixture, run, points, PrivacyZones(zones: [zone]), zone.hidden)
    }

    static func read(_ data: Data, _ name: String) throws -> RecordedActivity {
        try #require(try ActivityFileReader.read(data, file: name).first)
    }

    @Test("a zone's cut circle covers the real circle and is centred at least 0.8 radius off it, whatever is drawn")
    func hiddenCircleCoversZone() throws {
        var generator = SeededRandom(seed: 11)
        let door = try Coordinate(latitude: 48.137, longitude: 11.575)
        for _ in 0..<200 {
            let radius = Double.random(in: PrivacyZone.radii, using: &generator)
            let zone = PrivacyZone(
                name: "z", centre: door, radius: radius, source: .command,
                secret: ZoneSecret.draw(radius: radius, using: &generator))
            let hidden = zone.hidden
            let offset = Geodesic.wgs84.distance(door, hidden.centre)
            let share = ZoneSecret.offsetShare
            #expect(offset >= share.lowerBound * radius - 0.01 && offset <= share.upperBound * radius + 0.01)
            for bearing in stride(from: 0.0, to: 360, by: 10) {
                let edge = try Geodesic.wgs84.direct(from: door, bearing: bearing, distance: radius).destination
                #expect(hidden.contains(edge))
            }
            #expect(hidden.contains(door))
        }
        // The system's cryptographic source gives a new secret each time.
        #expect(ZoneSecret.draw(radius: 300) != ZoneSecret.draw(radius: 300))
    }

    @Test("GPX and GeoJSON: no point in the zone, a new trkseg/line after the cut, distances from the first visible")
    func gpxAndGeoJSON() async throws {
        let (fixture, run, points, zones, hidden) = try Self.sample()
        defer { fixture.remove() }
        let whole = ExportFormat.gpx.file(run: run, points: points)
        let cut = ExportFormat.gpx.file(run: run, points: points, privacy: zones)
        let gpx = String(decoding: cut, as: UTF8.self)
        #expect(try await ExportTests.validate(gpx, schema: "gpx-1.1.xsd").status == 0)
        let segments = { (text: String) in text.components(separatedBy: "<trkseg>").count - 1 }
        #expect(segments(gpx) == segments(String(decoding: whole, as: UTF8.self)) + 1)
        let read = try Self.read(cut, "cut.gpx")
        let positions = read.samples.compactMap(\.coordinate)
        #expect(!positions.isEmpty)
        #expect(!positions.contains { hidden.contains($0) })
        #expect(try Self.read(whole, "whole.gpx").samples.compactMap(\.coordinate).contains { hidden.contains($0) })

        let geojson = String(
            decoding: ExportFormat.geojson.file(run: run, points: points, privacy: zones), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any])
        let geometry = try #require(object["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiLineString")
        let lines = try #require(geometry["coordinates"] as? [[[Double]]])
        for position in lines.flatMap({ $0 }) {
            #expect(!hidden.contains(try Coordinate(latitude: position[1], longitude: position[0])))
        }
        let properties = try #require(object["properties"] as? [String: Any])
        #expect(abs((properties["distance_m"] as? Double ?? 0) - run.distance) < 0.01)
    }

    @Test("TCX: no position in the zone, laps and their distances are the whole route's, distances skip the zone")
    func tcx() async throws {
        let (fixture, run, points, zones, hidden) = try Self.sample()
        defer { fixture.remove() }
        let data = ExportFormat.tcx.file(run: run, points: points, laps: .perKilometre, privacy: zones)
        let text = String(decoding: data, as: UTF8.self)
        #expect(try await ExportTests.validate(text, schema: "TrainingCenterDatabasev2.xsd").status == 0)
        let whole = try Self.read(ExportFormat.tcx.file(run: run, points: points, laps: .perKilometre), "w.tcx")
        let read = try Self.read(data, "cut.tcx")
        #expect(!read.samples.compactMap(\.coordinate).contains { hidden.contains($0) })
        #expect(read.laps.count == whole.laps.count)
        #expect(read.laps.compactMap(\.distance) == whole.laps.compactMap(\.distance))
        // The distance run in the zone is left out of the trackpoints' distances, not the laps'.
        let zoneLength = try #require(whole.samples.last?.distance) - (try #require(read.samples.last?.distance))
        #expect(zoneLength > 150 && zoneLength < 600)
    }

    @Test("FIT: records in the zone keep their time and heart rate without a position; the session is the whole run")
    func fit() async throws {
        let (fixture, run, points, zones, hidden) = try Self.sample()
        defer { fixture.remove() }
        let whole = try Self.read(ExportFormat.fit.file(run: run, points: points), "whole.fit")
        let data = ExportFormat.fit.file(run: run, points: points, privacy: zones)
        let read = try Self.read(data, "cut.fit")
        #expect(!read.samples.compactMap(\.coordinate).contains { hidden.contains($0) })
        #expect(read.samples.count == whole.samples.count)
        #expect(read.samples.compactMap(\.coordinate).count < whole.samples.compactMap(\.coordinate).count)
        #expect(read.totals?.distance == whole.totals?.distance)
        #expect(read.totals?.timerTime == whole.totals?.timerTime)
        #expect(read.pauses == whole.pauses)
        let check = try await FITCheck.run(Array(data))
        #expect(
            check.integrity && check.garminErrors.isEmpty && check.fitdecodeErrors.isEmpty,
            "\(check.garminErrors) \(check.fitdecodeErrors)")
    }

    @Test("relative times: every format starts at the FIT epoch, 1989-12-31T00:00:00Z, and keeps the durations")
    func relativeTime() throws {
        let (fixture, run, points, _, _) = try Self.sample()
        defer { fixture.remove() }
        for format in ExportFormat.allCases where format != .geojson {
            let read = try Self.read(
                format.file(run: run, points: points, relativeTime: true), "run.\(format.fileExtension)")
            let whole = try Self.read(format.file(run: run, points: points), "run.\(format.fileExtension)")
            let first = try #require(read.samples.first?.time)
            #expect(first.timeIntervalSince(RelativeTime.epoch) < 2, "\(format)")
            #expect(first.timeIntervalSince(RelativeTime.epoch) >= 0, "\(format)")
            let span = { (activity: RecordedActivity) in
                (activity.samples.last?.time ?? .distantPast).timeIntervalSince(activity.samples.first?.time ?? .now)
            }
            #expect(abs(span(read) - span(whole)) < 1, "\(format)")
        }
        let geojson = String(
            decoding: ExportFormat.geojson.file(run: run, points: points, relativeTime: true), as: UTF8.self)
        #expect(geojson.contains("\"1989-12-31T00:00:0"))
        #expect(!geojson.contains("\"2024-"))
    }

    @Test("the SVG picture and the page's map data leave out the zone and its distance marks")
    func pictureAndMapData() throws {
        let (fixture, run, points, zones, hidden) = try Self.sample()
        defer { fixture.remove() }
        let renderer = RouteRenderer(units: .metric)
        let marks = { (svg: String) in svg.components(separatedBy: "r=\"8\" fill=\"#fff\"").count - 1 }
        let wholePicture = renderer.svg(run: run, points: points)
        let picture = renderer.svg(run: run, points: points, privacy: zones)
        #expect(marks(wholePicture) > 0)
        #expect(marks(picture) == 0)
        let vertices = { (svg: String) in svg.components(separatedBy: ",").count }
        #expect(vertices(picture) < vertices(wholePicture))
        // The header keeps the whole route's distance.
        #expect(picture.contains(DistanceFormat.string(metres: run.distance, units: .metric)))

        let profile = Profile(points: points)
        let map = RunRouteMap.view(points: points, profile: profile, units: .metric, cut: zones.cut(points))
        let wholeMap = RunRouteMap.view(points: points, profile: profile, units: .metric)
        let inZone = { (pair: [Double]) in
            hidden.contains((try? Coordinate(latitude: pair[0], longitude: pair[1])) ?? .zero)
        }
        #expect(!map.lines.flatMap(\.points).contains(where: inZone))
        #expect(wholeMap.lines.flatMap(\.points).contains(where: inZone))
        #expect(!map.markers.contains { inZone([$0.lat, $0.lon]) })
        #expect(map.markers.filter { $0.kind == .mark }.isEmpty)

        let analysis = RunAnalysis(points: points, start: run.startedAt, activity: run.activity, privacy: zones)
        let wholeAnalysis = RunAnalysis(points: points, start: run.startedAt, activity: run.activity)
        for pair in analysis.route.segments.flatMap({ $0 }) {
            #expect(!hidden.contains(try Coordinate(latitude: pair[0], longitude: pair[1])))
        }
        #expect(analysis.splits == wholeAnalysis.splits)
        #expect(analysis.bestEfforts == wholeAnalysis.bestEfforts)
    }
}
