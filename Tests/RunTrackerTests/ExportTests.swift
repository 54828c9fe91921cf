import Foundation
import MeridianCore
import MeridianTesting
import ReplayProvider
import Testing
@testable import RunTracker

@Suite("Export: GPX, TCX, GeoJSON and GPX import")
struct ExportTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")

    /// Runs xmllint against a vendored schema; returns its exit status and messages.
    static func validate(_ document: String, schema: String) throws -> (status: Int32, output: String) {
        let directory = try TestData.temporaryDirectory("export")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("document.xml")
        try document.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xmllint", "--noout", "--nonet", "--schema", schemas.appendingPathComponent(schema).path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// A 25-minute run with two pauses (three segments), a name that needs escaping, and notes.
    static func sample() throws -> (HistoryFixture, RunSummary, [TrackPoint]) {
        let fixture = try HistoryFixture()
        var run = Fixtures.run("exp", day: 0, name: "Tom & Jerry's <loop>", duration: 1500,
                               pauses: [(offset: 400, length: 30), (offset: 900, length: 60)])
        // a 1 km spike: the tracker rejects it as an implausible jump
        run.fixes[10].coordinate = try Geodesic.wgs84.direct(from: Fixtures.origin, bearing: 90, distance: 1000).destination
        try fixture.insert(run)
        try fixture.store.database.write { db in
            try db.execute(sql: "UPDATE runs SET notes = ? WHERE id = 'exp'", arguments: ["windy\u{1}, \"fast\""])
        }
        let (summary, points) = try fixture.store.database.read { db in
            (try RunHistory.liveRun(db, id: "exp"), try RunPoints.load(db, runID: "exp"))
        }
        return (fixture, summary, points)
    }

    @Test("GPX validates against the GPX 1.1 schema, one trkseg per segment, speed in TrackPointExtension v2")
    func gpxValidates() throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let gpx = GPXExport.document(run: run, points: points)
        let result = try Self.validate(gpx, schema: "gpx-1.1.xsd")
        #expect(result.status == 0, "\(result.output)")
        #expect(gpx.components(separatedBy: "<trkseg>").count - 1 == 3)
        #expect(gpx.contains("<name>Tom &amp; Jerry&apos;s &lt;loop&gt;</name>"))
        #expect(!gpx.contains("\u{1}"))
        let accepted = points.filter { $0.isAccepted && $0.coordinate != nil }.count
        #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == accepted)
        // strict structural check of the extension (its schema is not vendored, see Schemas/PROVENANCE.md)
        let pattern = try Regex(#"<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>[0-9]+\.[0-9]{3}</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>"#)
        #expect(gpx.matches(of: pattern).count == accepted)
        #expect(gpx.contains(#"xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2""#))
    }

    @Test("the schema check can fail: a GPX with elements out of order is rejected")
    func schemaCheckFails() throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let broken = GPXExport.document(run: run, points: points).replacingOccurrences(of: "<type>run</type>\n", with: "")
            .replacingOccurrences(of: "</trk>", with: "<type>run</type></trk>")
        #expect(try Self.validate(broken, schema: "gpx-1.1.xsd").status != 0)
    }

    @Test("TCX validates against TrainingCenterDatabase v2: one lap per km, a new Track after each pause")
    func tcxValidates() throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let tcx = TCXExport.document(run: run, points: points, laps: .perKilometre)
        let result = try Self.validate(tcx, schema: "TrainingCenterDatabasev2.xsd")
        #expect(result.status == 0, "\(result.output)")
        let progress = RunProgress(points: points, start: run.startedAt)
        let splits = progress.splits(every: 1000, unit: "km").splits
        #expect(tcx.components(separatedBy: "<Lap ").count - 1 == splits.count)
        // three segments: at least two extra tracks beyond one per lap
        #expect(tcx.components(separatedBy: "<Track>").count - 1 >= splits.count + 2)
        #expect(tcx.contains("<Activity Sport=\"Running\">"))

        let single = TCXExport.document(run: run, points: points, laps: .single)
        #expect(try Self.validate(single, schema: "TrainingCenterDatabasev2.xsd").status == 0)
        #expect(single.components(separatedBy: "<Lap ").count - 1 == 1)
        #expect(single.components(separatedBy: "<Track>").count - 1 == 3)
    }

    @Test("GeoJSON is a Feature with a MultiLineString per segment and the run's properties")
    func geoJSON() throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        let text = GeoJSONExport.document(run: run, points: points)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "Feature")
        let geometry = try #require(json["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiLineString")
        let lines = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(lines.count == 3)
        let first = try #require(lines.first?.first)
        #expect(abs(first[0] - Fixtures.origin.longitude) < 1e-6 && abs(first[1] - Fixtures.origin.latitude) < 1e-6)
        let properties = try #require(json["properties"] as? [String: Any])
        #expect(properties["id"] as? String == "exp")
        #expect((properties["distance_m"] as? Double).map { abs($0 - run.distance) < 1e-6 } == true)
        #expect((properties["coord_times"] as? [[String]])?.map(\.count) == lines.map(\.count))
    }

    @Test("an exported GPX imported through the tracker gives back the distance, times and segments")
    func gpxRoundTrip() async throws {
        let (fixture, run, points) = try Self.sample()
        defer { fixture.remove() }
        #expect(points.contains { $0.rejection == .implausibleJump })
        let directory = try TestData.temporaryDirectory("round-trip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("exp.gpx")
        try GPXExport.document(run: run, points: points).write(to: file, atomically: true, encoding: .utf8)
        var problems: [String] = []
        let fixes = try TrackFileReader.read(url: file, providerID: "import") { problems.append("\($0)") }
        #expect(problems.isEmpty)
        let imported = try #require(try RunStore(store: fixture.store).importRun(fixes, id: "back", name: run.name, activity: run.activity))
        let again = imported.summary
        #expect(again.state == .stopped && again.name == run.name)
        // the tracker measures between smoothed positions, and the poor-accuracy fixes are not in the file
        #expect(abs(again.distance - run.distance) <= 0.001 * run.distance)
        #expect(again.segmentCount == 3)
        #expect(again.elapsedTime == run.elapsedTime && again.timerTime == run.timerTime && again.movingTime == run.movingTime)
        let original = RunProgress.usable(points)
        let back = RunProgress.usable(imported.points)
        #expect(back.first?.time == original.first?.time && back.last?.time == original.last?.time)
        let splitsBefore = RunProgress(points: points, start: run.startedAt).splits(every: 1000, unit: "km").splits
        let splitsAfter = RunProgress(points: imported.points, start: again.startedAt).splits(every: 1000, unit: "km").splits
        #expect(splitsBefore.count == splitsAfter.count)
        #expect(zip(splitsBefore, splitsAfter).allSatisfy { abs($0.elapsedTime - $1.elapsedTime) < 0.1 })
    }
}
