import Foundation
import MeridianTesting
import Testing

@Suite("meridian flyers import, list and maplink as a user sees them")
struct FlyersCommandTests {
    /// A folder with a configuration in Europe/Berlin whose store is `f.sqlite` beside it.
    static func folder() throws -> (directory: URL, config: String) {
        let directory = try TestData.temporaryDirectory()
        let config = directory.appendingPathComponent("meridian.yaml")
        try """
        time_zone: Europe/Berlin
        store:
          path: \(directory.appendingPathComponent("f.sqlite").path)
        consumers:
          - type: flyers

        """.write(to: config, atomically: true, encoding: .utf8)
        return (directory, config.path)
    }

    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("an import lists every bad line and every bad feature, and imports nothing")
    func everyProblem() throws {
        let (directory, config) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try Self.write(
            "id,title,lat,lon,valid_until\na,Fine,48.85,2.35,\nb,Far,120,2.35,\nc,,48,2,\nd,Late,48,2,next week\ne,Fine too,48,2,\n",
            "bad.csv", in: directory)
        let result = try MeridianBinary.run(["flyers", "import", csv, "--config", config])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "meridian: \(csv): 3 problems; nothing was imported:", "\(result.stderr)")
        #expect(
            lines.dropFirst().map { $0.prefix(11) } == ["  line 3: l", "  line 4: t", "  line 5: v"], "\(result.stderr)"
        )
        let geojson = try Self.write(
            """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","geometry":{"type":"Point","coordinates":[2,48]},"properties":{}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[2,48]},"properties":{"title":"ok"}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[2,148]},"properties":{"title":"x"}}]}
            """, "bad.geojson", in: directory)
        let features = try MeridianBinary.run(["flyers", "import", geojson, "--config", config])
        #expect(
            features.stderr.contains(
                "2 problems; nothing was imported:\n  features[0]: properties.title: missing title")
                && features.stderr.contains("\n  features[2]: geometry.coordinates: latitude 148.0"),
            "\(features.stderr)")
        // One problem stays on one line, as before.
        let one = try Self.write("title,lat,lon\nx,120,2\n", "one.csv", in: directory)
        let single = try MeridianBinary.run(["flyers", "import", one, "--config", config])
        #expect(
            single.stderr
                == "meridian: \(one): line 2: lat: latitude 120.0 is outside -90...90; are lat and lon swapped?; nothing was imported\n"
        )
        #expect(try MeridianBinary.run(["flyers", "list", "--config", config]).stdout == "No flyers.\n")
    }

    @Test("flyers list aligns wide characters, never cuts one, and shows validity in the configured zone")
    func listing() throws {
        let (directory, config) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = String(repeating: "🎉", count: 30)
        let csv = try Self.write(
            """
            id,name,latitude,lng,valid_from,valid_until
            a,Bäckerei 🥐,48.85,2.35,,2030-12-31
            b,東京タワー,48.86,2.35,2030-01-01,2030-12-31T12:00:00Z
            c,\(long),48.87,2.35,,

            """, "flyers.csv", in: directory)
        let imported = try MeridianBinary.run(["flyers", "import", csv, "--config", config])
        #expect(imported.status == 0, "\(imported.stderr)")
        let list = try MeridianBinary.run(["flyers", "list", "--config", config])
        let shortened = String(repeating: "🎉", count: 19) + "…"
        #expect(
            list.stdout == """
                id  title                                    category  where       valid (Europe/Berlin)
                a   Bäckerei 🥐                                        48.85,2.35  until 2030-12-31
                b   東京タワー                                         48.86,2.35  from 2030-01-01 until 2030-12-31 13:00
                c   \(shortened)            48.87,2.35  always

                """, "\(list.stdout)")
    }

    @Test("meridian maplink --flyer to an area of two polygons points inside one of them")
    func areaLink() throws {
        let (directory, config) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let geojson = try Self.write(
            """
            {"type":"Feature","id":"parks","geometry":{"type":"MultiPolygon","coordinates":[
              [[[2.20,48.80],[2.22,48.80],[2.22,48.82],[2.20,48.82],[2.20,48.80]]],
              [[[2.50,48.80],[2.54,48.80],[2.54,48.84],[2.50,48.84],[2.50,48.80]]]]},
             "properties":{"title":"Two parks"}}
            """, "parks.geojson", in: directory)
        #expect(try MeridianBinary.run(["flyers", "import", geojson, "--config", config]).status == 0)
        let link = try MeridianBinary.run(["maplink", "--flyer", "parks", "--style", "geo", "--config", config])
        #expect(link.status == 0, "\(link.stderr)")
        // geo:LAT,LON…
        let numbers = link.stdout.dropFirst(4).prefix { $0 != "?" && $0 != "\n" }.split(separator: ",").compactMap {
            Double($0)
        }
        #expect(numbers.count == 2, "\(link.stdout)")
        if numbers.count == 2 {
            #expect((48.80...48.84).contains(numbers[0]) && (2.50...2.54).contains(numbers[1]), "\(link.stdout)")
        }
    }
}
