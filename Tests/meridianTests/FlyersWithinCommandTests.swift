import Foundation
import MeridianTesting
import Testing

/// `meridian flyers within FILE.geojson`, run as a user runs it.
@Suite("meridian flyers within")
struct FlyersWithinCommandTests {
    @Test("lists the flyers inside a polygon with a hole, touching ones with --intersects, JSON; refuses a bowtie")
    func within() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("flyers.sqlite").path
        let flyers = directory.appendingPathComponent("flyers.geojson")
        try Data(
            """
            {"type": "FeatureCollection", "features": [
             {"type": "Feature", "id": "inside", "geometry": {"type": "Point", "coordinates": [2.25, 48.82]}, "properties": {"title": "Bakery"}},
             {"type": "Feature", "id": "in-hole", "geometry": {"type": "Point", "coordinates": [2.35, 48.86]}, "properties": {"title": "Hole cafe"}},
             {"type": "Feature", "id": "across", "geometry": {"type": "Polygon", "coordinates": [[[2.45, 48.81], [2.55, 48.81], [2.55, 48.83], [2.45, 48.83], [2.45, 48.81]]]}, "properties": {"title": "Market"}}
            ]}
            """.utf8
        ).write(to: flyers)
        let imported = try MeridianBinary.run(["flyers", "import", flyers.path, "--db", db])
        #expect(imported.status == 0, "\(imported.stderr)")
        let polygon = directory.appendingPathComponent("district.geojson")
        try Data(
            """
            {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [
              [[2.20, 48.80], [2.50, 48.80], [2.50, 48.92], [2.20, 48.92], [2.20, 48.80]],
              [[2.30, 48.84], [2.30, 48.88], [2.40, 48.88], [2.40, 48.84], [2.30, 48.84]]]}}
            """.utf8
        ).write(to: polygon)
        let within = try MeridianBinary.run(["flyers", "within", polygon.path, "--db", db])
        #expect(within.status == 0, "\(within.stderr)")
        #expect(within.stdout == "Bakery  (inside)\n", "\(within.stdout)")
        let touching = try MeridianBinary.run(["flyers", "within", polygon.path, "--intersects", "--json", "--db", db])
        #expect(touching.status == 0, "\(touching.stderr)")
        let items = try JSONSerialization.jsonObject(with: Data(touching.stdout.utf8)) as? [String: Any]
        #expect((items?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["across", "inside"])

        let bowtie = directory.appendingPathComponent("bowtie.geojson")
        try Data(#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}"#.utf8).write(
            to: bowtie)
        let refused = try MeridianBinary.run(["flyers", "within", bowtie.path, "--db", db])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bowtie.geojson: within: the polygon crosses itself"), "\(refused.stderr)")
    }
}
