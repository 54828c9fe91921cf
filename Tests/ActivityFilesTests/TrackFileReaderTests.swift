import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import NMEA
import Testing

@Suite("Track files: GPX, gpsd JSON, NMEA")
struct TrackFileReaderTests {
    static func gpxFiles() throws -> [String] { try TestData.files(in: "gpx", suffix: ".gpx").map(\.lastPathComponent) }

    @Test("every shared GPX file", arguments: try gpxFiles())
    func readsGPX(name: String) throws {
        let url = TestData.url("gpx/\(name)")
        var errors: [TrackReadError] = []
        let reader = try TrackFileReader(url: url, providerID: "gpx")
        #expect(reader.format == .gpx)
        var fixes: [Fix] = []
        while let batch = try reader.nextBatch(onError: { errors.append($0) }) { fixes += batch }
        #expect(errors.isEmpty, "\(errors)")
        let text = try String(contentsOf: url, encoding: .utf8)
        let points = text.components(separatedBy: "<trkpt").count - 1 + text.components(separatedBy: "<rtept").count - 1
        let counters = reader.counters
        #expect(counters["points"] == points)
        #expect(fixes.count + (counters["points_without_time"] ?? 0) == points)
        #expect(!fixes.isEmpty)
        for (index, fix) in fixes.enumerated() {
            let problems = ProviderConformance.check(fix, index: index, id: "gpx")
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test func gpxDetailsAndPointsWithoutTime() throws {
        let korita = TestData.url("gpx/gpxpy__korita-zbevnica.gpx")
        let reader = try TrackFileReader(url: korita, providerID: "gpx")
        var fixes: [Fix] = []
        while let batch = try reader.nextBatch(onError: { _ in }) { fixes += batch }
        #expect(reader.counters["points_without_time"] == 358)
        #expect(fixes.count == 871 - 358)

        let holux = try TrackFileReader.read(
            url: TestData.url("gpx/sportstracker__bike-tour-holux-funtrek-130-pro-with-heartrate.gpx"),
            providerID: "gpx", onError: { _ in })
        let first = try #require(holux.first)
        #expect(ISO8601.string(from: first.time) == "2011-11-03T09:09:25.000Z")
        #expect(first.coordinate == (try Coordinate(latitude: 49.99012500, longitude: 36.34850472)))
        #expect(first.altitudeMSL == 224.0)
        #expect(first.speed == 0.5)
        #expect(first.mode == .threeD)
    }

    @Test func malformedGPXNamesFileAndLineAndKeepsValidPoints() throws {
        let directory = try TestData.temporaryDirectory("gpx")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("bad.gpx")
        let text = """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"><trk><trkseg>
            <trkpt lat="48.1" lon="11.5"><time>2024-05-01T07:00:00Z</time></trkpt>
            <trkpt lat="abc" lon="11.5"><time>2024-05-01T07:00:01Z</time></trkpt>
            <trkpt lat="48.1" lon="11.6"><time>yesterday</time></trkpt>
            <trkpt lat="48.2" lon="11.5"><ele>500</ele><time>2024-05-01T07:00:03Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>2.5</gpxtpx:speed><gpxtpx:course>90</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="48.3" lon="11.5"><time>2024-05-01T07:00:04Z</ti
            """
        try text.write(to: url, atomically: true, encoding: .utf8)
        var errors: [TrackReadError] = []
        let fixes = try TrackFileReader.read(url: url, providerID: "g", onError: { errors.append($0) })
        #expect(fixes.count == 2)
        #expect(fixes.last?.speed == 2.5)
        #expect(fixes.last?.course == 90)
        #expect(errors.count == 3, "\(errors)")
        #expect(errors.map(\.line) == [4, 5, 7])
        #expect(errors.allSatisfy { $0.file == url.path })
        #expect(errors.first?.description.contains("bad.gpx:4:") == true)
    }

    @Test func gpsdJSONLinesWithAMalformedLine() throws {
        let directory = try TestData.temporaryDirectory("gpsd")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("run.json")
        let lines = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T07:00:00.000Z","lat":48.1,"lon":11.5,"altHAE":500.0,"speed":2.0,"track":90.0}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T07:00:01.000Z","lat":48.1,"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T07:00:02.000Z","lat":48.2,"lon":11.5,"altHAE":501.0}"#
        ]
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        var errors: [TrackReadError] = []
        let fixes = try TrackFileReader.read(url: url, providerID: "g", onError: { errors.append($0) })
        #expect(fixes.count == 2)
        #expect(fixes.first?.coordinate?.latitude == 48.1)
        #expect(errors.map(\.line) == [3])
        #expect(errors.first?.file == url.path)
    }

    @Test func nmeaFileMatchesTheStreamDecoder() throws {
        let url = TestData.url("nmea/ublox-zed-f9p-nmea.log")
        let fixes = try TrackFileReader.read(url: url, providerID: "n", onError: { _ in })
        var decoder = NMEAStreamDecoder(providerID: "n")
        var expected = decoder.feed(try Data(contentsOf: url))
        expected += decoder.finish()
        #expect(fixes == expected)
        #expect(!fixes.isEmpty)
    }

    @Test func formatDetection() {
        #expect(TrackFormat.auto.resolved(prefix: Array("\u{FEFF}  <?xml".utf8)) == .gpx)
        #expect(TrackFormat.auto.resolved(prefix: Array("# comment\n{\"class\"".utf8)) == .gpsd)
        #expect(TrackFormat.auto.resolved(prefix: Array("# Name: x\n$GPGGA".utf8)) == .nmea)
        #expect(TrackFormat.nmea.resolved(prefix: Array("<".utf8)) == .nmea)
    }

    /// Fixes read from `file` through a named pipe, which cannot be peeked at like a file.
    private func readThroughPipe(_ file: URL) throws -> (format: TrackFormat, fixes: [Fix]) {
        let directory = try TestData.temporaryDirectory("pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("track")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let contents = try Data(contentsOf: file)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            handle.write(contents)
            try? handle.close()
        }
        writer.start()
        let reader = try TrackFileReader(url: fifo, providerID: "p")
        var fixes: [Fix] = []
        while let batch = try reader.nextBatch(onError: { _ in }) { fixes += batch }
        return (reader.format, fixes)
    }

    @Test(
        "auto-detection works on a pipe too, and the bytes read to detect are decoded",
        arguments: ["gpx/gpxpy__korita-zbevnica.gpx", "nmea/ublox-zed-f9p-nmea.log"])
    func detectsThroughAPipe(name: String) throws {
        let url = TestData.url(name)
        let piped = try readThroughPipe(url)
        let direct = try TrackFileReader(url: url, providerID: "p")
        var fixes: [Fix] = []
        while let batch = try direct.nextBatch(onError: { _ in }) { fixes += batch }
        #expect(piped.format == direct.format)
        #expect(piped.fixes == fixes && !fixes.isEmpty)
    }

    @Test func gpsdJSONThroughAPipe() throws {
        let directory = try TestData.temporaryDirectory("gpsd-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("run.json")
        try (#"{"class":"TPV","mode":2,"time":"2024-05-01T07:00:00.000Z","lat":48.1,"lon":11.5}"# + "\n").write(
            to: url, atomically: true, encoding: .utf8)
        let piped = try readThroughPipe(url)
        #expect(piped.format == .gpsd && piped.fixes.count == 1)
    }

    @Test func missingFileSaysWhich() {
        #expect(throws: TrackReadError.self) {
            _ = try TrackFileReader(url: URL(fileURLWithPath: "/nonexistent/track.gpx"), providerID: "x")
        }
    }
}
