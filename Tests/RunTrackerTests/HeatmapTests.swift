import CZlib
import Foundation
import GRDB
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// The heatmap: runs on known streets light those streets and nothing else, more runs are brighter, privacy zones
/// stay dark, and the PNG decodes to the pixels drawn.
@Suite("Heatmap")
struct HeatmapTests {
    /// A street 1,200 m due east of `Fixtures.origin`, and a side street 600 m due north from its 800 m mark.
    static let mainStreet = SyntheticCourse(origin: Fixtures.origin, waypoints: [(0, 0), (1200, 0)])
    static let sideStreet = SyntheticCourse(origin: Fixtures.origin, waypoints: [(800, 0), (800, 600)])

    /// The point `east` and `north` metres from the origin.
    static func place(east: Double, north: Double) -> Coordinate {
        let distance = (east * east + north * north).squareRoot()
        guard distance > 0 else { return Fixtures.origin }
        return
            (try? Geodesic.wgs84.direct(
                from: Fixtures.origin, bearing: atan2(east, north) * 180 / .pi, distance: distance
            ).destination) ?? Fixtures.origin
    }

    /// Five runs along the main street, one along the side street, and a ride along the side street.
    static func fill(_ fixture: HistoryFixture) throws {
        for index in 0..<5 {
            try fixture.insert(
                mainStreet.run(
                    id: "main-\(index)", name: "Main \(index)",
                    startedAt: Fixtures.day0.addingTimeInterval(Double(index) * 86_400), jitter: 0.5,
                    seed: UInt64(10 + index)
                ) { _ in 3 })
        }
        try fixture.insert(
            sideStreet.run(
                id: "side", name: "Side", startedAt: Fixtures.day0.addingTimeInterval(6 * 86_400), jitter: 0.5,
                seed: 20
            ) { _ in 3 })
        try fixture.insert(
            sideStreet.run(
                id: "ride", name: "Ride", activity: .ride, startedAt: Fixtures.day0.addingTimeInterval(7 * 86_400),
                jitter: 0.5, seed: 21
            ) { _ in 8 })
    }

    /// The most runs any pixel within `radius` pixels of `coordinate` counts.
    static func brightest(_ raster: HeatRaster, near coordinate: Coordinate, radius: Int = 2) -> UInt32 {
        guard let centre = raster.pixel(of: coordinate) else {
            Issue.record("\(coordinate) is off the map")
            return 0
        }
        var most: UInt32 = 0
        for y in (centre.y - radius)...(centre.y + radius) where (0..<raster.height).contains(y) {
            for x in (centre.x - radius)...(centre.x + radius) where (0..<raster.width).contains(x) {
                most = max(most, raster.count(x: x, y: y))
            }
        }
        return most
    }

    @Test("runs on known streets light those streets, brighter where run more often; away from them it is dark")
    func streets() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try Self.fill(fixture)
        let request = try HeatmapRequest(
            activity: "run", from: nil, to: nil, width: "400", timeZone: .gmt, prefix: "")
        let raster = try await request.heatmap(in: fixture.store).raster
        #expect(raster.runCount == 6 && raster.maxCount == 6, "six runs where the streets meet")
        #expect(Self.brightest(raster, near: Self.place(east: 800, north: 0)) == 6)
        #expect(raster.metresPerPixel > 2 && raster.metresPerPixel < 4, "1,200 m across about 376 pixels")
        for east in stride(from: 20.0, through: 1180, by: 40) {
            #expect(Self.brightest(raster, near: Self.place(east: east, north: 0)) == 5, "main street at \(east) m")
            #expect(Self.brightest(raster, near: Self.place(east: east, north: 40)) == 0, "40 m north at \(east) m")
        }
        for north in stride(from: 40.0, through: 580, by: 40) {
            #expect(Self.brightest(raster, near: Self.place(east: 800, north: north)) == 1, "side street \(north) m")
            #expect(Self.brightest(raster, near: Self.place(east: 400, north: north)) == 0, "west of it")
        }
        // In colour: the main street near the top of the ramp, the side street its dimmest, the rest the ground.
        let renderer = HeatmapRenderer(raster: raster, units: .metric)
        let pixels = renderer.pixels
        func colour(_ coordinate: Coordinate) -> [UInt8] {
            guard let pixel = raster.pixel(of: coordinate) else { return [] }
            let index = (pixel.y * raster.width + pixel.x) * 3
            return Array(pixels[index..<index + 3])
        }
        func rgb(_ colour: (UInt8, UInt8, UInt8)) -> [UInt8] { [colour.0, colour.1, colour.2] }
        let street = colour(Self.place(east: 300, north: 0))
        #expect(street == rgb(HeatColours.colour(5, of: 6)) && street.map(Int.init).reduce(0, +) > 600, "\(street)")
        #expect(colour(Self.place(east: 800, north: 300)) == rgb(HeatColours.stops[0]))
        #expect(colour(Self.place(east: 300, north: 200)) == rgb(HeatColours.ground))

        // Rides alone: only the side street.
        let rides = try await HeatmapRequest(
            activity: "ride", from: nil, to: nil, width: "400", timeZone: .gmt, prefix: ""
        ).heatmap(in: fixture.store).raster
        #expect(rides.runCount == 1 && rides.maxCount == 1)
        // A period: the first two days hold two runs of the main street.
        let period = try await HeatmapRequest(
            activity: nil, from: "2024-05-01", to: "2024-05-02", width: nil, timeZone: .gmt, prefix: ""
        ).heatmap(in: fixture.store).raster
        #expect(period.runCount == 2 && period.maxCount == 2 && period.width == HeatmapRequest.defaultWidth)
    }

    @Test("a privacy zone on the street stays dark (the line between far-apart simplified points too); the rest lights")
    func privacyZone() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try Self.fill(fixture)
        let door = Self.place(east: 300, north: 0)
        let zone = try await fixture.store.database.write { db in
            try PrivacyBook.add(name: "home", centre: door, radius: 100, in: db)
        }
        let raster = try await HeatmapRequest(
            activity: "run", from: nil, to: nil, width: "400", timeZone: .gmt, prefix: ""
        ).heatmap(in: fixture.store).raster
        // The stored track of a straight street has only its two ends: without the densified check the whole
        // street would be drawn.
        let tracks = try await fixture.store.database.read { db in
            try HeatmapSource.runs(filter: RunFilter(activity: .run), zones: PrivacyZones.none, in: db)
        }
        #expect(tracks.first?.first?.count ?? 0 < 10)
        let hidden = zone.hidden
        // The cut circle may reach the street's west end (it is drawn at random around the door); the map then
        // starts east of it, and a place off the map is dark too.
        for east in stride(from: 200.0, through: 400, by: 20) {
            let point = Self.place(east: east, north: 0)
            guard raster.pixel(of: point) != nil else { continue }
            #expect(Self.brightest(raster, near: point, radius: 0) == 0, "\(east) m")
        }
        for east in stride(from: 20.0, through: 1180, by: 20) {
            let point = Self.place(east: east, north: 0)
            let distance = try Geodesic.wgs84.inverse(from: point, to: hidden.centre).distance
            if distance > hidden.radius + 5 && abs(east - 800) > 20 {
                #expect(Self.brightest(raster, near: point) == 5, "outside the cut circle at \(east) m")
            }
        }
    }

    @Test("the PNG decodes (zlib, Sub filters, CRCs) to the pixels drawn; the SVG holds it and needs nothing else")
    func pictures() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        try Self.fill(fixture)
        let raster = try await HeatmapRequest(
            activity: nil, from: nil, to: nil, width: "320", timeZone: .gmt, prefix: ""
        ).heatmap(in: fixture.store).raster
        let renderer = HeatmapRenderer(raster: raster, units: .metric)
        let png = [UInt8](try renderer.png())
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var offset = 8
        var chunks: [(String, [UInt8])] = []
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let typed = Array(png[offset + 4..<offset + 8 + length])
            let stored = png[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(UInt32(crc32(0, typed, uInt(typed.count))) == stored)
            chunks.append((String(decoding: typed.prefix(4), as: UTF8.self), Array(typed.dropFirst(4))))
            offset += 12 + length
        }
        #expect(chunks.map(\.0) == ["IHDR", "IDAT", "IEND"] && offset == png.count)
        let header = try #require(chunks.first?.1)
        let width = header[0..<4].reduce(0) { $0 << 8 | Int($1) },
            height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == raster.width && height == raster.height && Array(header[8...]) == [8, 2, 0, 0, 0])
        let compressed = chunks[1].1
        var size = uLong((width * 3 + 1) * height)
        var raw = [UInt8](repeating: 0, count: Int(size))
        #expect(uncompress(&raw, &size, compressed, uLong(compressed.count)) == Z_OK && Int(size) == raw.count)
        var decoded: [UInt8] = []
        for row in 0..<height {
            let start = row * (width * 3 + 1)
            #expect(raw[start] == 1)
            for index in 0..<(width * 3) {
                let left = index >= 3 ? decoded[decoded.count - 3] : 0
                decoded.append(raw[start + 1 + index] &+ left)
            }
        }
        #expect(decoded == renderer.pixels)
        let svg = try renderer.svg(caption: "Heatmap of 7 runs")
        #expect(svg.contains("<image width=\"320\" height=\"\(height)\" href=\"data:image/png;base64,"))
        #expect(!svg.contains("http://") || svg.components(separatedBy: "http://").count == 2, "only the namespace")
        #expect(
            svg.contains("<title>Heatmap of 7 runs</title>") && svg.contains(">7 runs<"),
            "the legend: seven runs where the streets meet")
        let empty = HeatmapRenderer(raster: HeatRaster(runs: [], width: 320), units: .metric)
        #expect(try empty.svg(caption: "none").contains("No routes in this selection"))
    }

    @Test("runs starting over 50 km from the busiest place are left out of the map and counted")
    func focus() throws {
        let street = [Self.place(east: 0, north: 0), Self.place(east: 500, north: 0)]
        let madrid = [
            try Coordinate(latitude: 40.4168, longitude: -3.7038), try Coordinate(latitude: 40.42, longitude: -3.70)
        ]
        let nearby = [Self.place(east: 30_000, north: 20_000), Self.place(east: 30_500, north: 20_000)]
        let (shown, elsewhere) = HeatmapFocus.busiest([[street], [madrid], [street], [nearby], [street]])
        #expect(shown == [[street], [street], [nearby], [street]] && elsewhere == 1)
        // Two places as busy: the later run's.
        let tie = HeatmapFocus.busiest([[street], [madrid], [nearby], [madrid]])
        #expect(tie.shown == [[madrid], [madrid]] && tie.elsewhere == 2)
        let one = HeatmapFocus.busiest([[madrid]])
        #expect(one.shown == [[madrid]] && one.elsewhere == 0)
    }

    @Test("GET /v1/heatmap.svg and .png, the /heatmap page and its picture; bad parameters are 400s")
    func routes() async throws {
        try await TrackerServer.with(yaml: "consumers:\n  - type: run-tracker\n", filling: Self.fill) { server in
            let svg = try await server.call("GET", "/v1/heatmap.svg?activity=run&width=400")
            #expect(svg.status == 200 && svg.headers["content-type"]?.hasPrefix("image/svg+xml") == true)
            #expect(svg.text.contains("Heatmap of 6 runs (run)") && svg.text.contains("data:image/png;base64,"))
            let png = try await server.call("GET", "/v1/heatmap.png?from=2024-05-01&to=2024-05-03")
            #expect(png.status == 200 && png.headers["content-type"] == "image/png")
            #expect(Array(png.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            for bad in ["activity=swim", "width=100", "from=soon", "from=2024-05-03&to=2024-05-01", "zoom=3"] {
                let answer = try await server.call("GET", "/v1/heatmap.svg?\(bad)")
                #expect(answer.status == 400, "\(bad): \(answer.text)")
            }
            let page = try await server.call("GET", "/heatmap?activity=run&from=2024-05-01")
            #expect(page.status == 200)
            #expect(page.text.contains("src=\"/heatmap.svg?activity=run&amp;from=2024-05-01\""))
            #expect(page.text.contains("srcset=\"/heatmap.svg?activity=run&amp;from=2024-05-01&amp;width=400 400w,"))
            let picture = try await server.call("GET", "/heatmap.svg?activity=run&from=2024-05-01")
            #expect(picture.status == 200 && picture.text.contains("<svg"))
            let bad = try await server.call("GET", "/heatmap?activity=swim")
            #expect(bad.status == 400 && bad.text.contains("not an activity"))
        }
    }
}
