import Foundation
import MeridianTesting
import Testing

@Suite("meridian core commands")
struct CoreCommandsTests {
    @Test("distance prints JSON in centimetres, negative coordinates included")
    func distanceJSON() throws {
        let result = try MeridianBinary.run(["distance", "-33.8688,151.2093", "51.5074,-0.1278", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Double])
        #expect(Set(object.keys) == ["meters", "initial_bearing", "final_bearing"])
        // GeographicLib: 16,989,295.77 m for Sydney → London (16,989,295.770540), written to the centimetre.
        #expect(result.stdout.contains(#""meters":16989295.77}"#), "\(result.stdout)")
    }

    @Test("distance rejects bad points with exit code 2 and a message naming the value")
    func distanceErrors() throws {
        let swapped = try MeridianBinary.run(["distance", "151.2,-33.8", "0,0"])
        #expect(swapped.status == 2)
        #expect(swapped.stderr.contains("latitude 151.2"))
        let one = try MeridianBinary.run(["distance", "0,0"])
        #expect(one.status == 2 && one.stderr.contains("two points"))
    }

    @Test(
        "format shows Meridian's rules",
        arguments: [
            (["format", "distance", "999.96"], "1.0 km"),
            (["format", "distance", "1609.344", "--units", "imperial"], "1.0 mi"),
            (["format", "pace", "299.6"], "5:00 /km"),
            (["format", "pace", "-1"], "--:-- /km"),
            (["format", "duration", "3661"], "1:01:01")
        ])
    func format(arguments: [String], expected: String) throws {
        let result = try MeridianBinary.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected + "\n")
    }

    @Test("config check: summary and exit 0 for the default file")
    func configCheckDefault() throws {
        let result = try MeridianBinary.run(["config", "check", "Config/meridian.yaml"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Config/meridian.yaml: OK"))
    }

    @Test(
        "config check: exit 2 and the located error",
        arguments: [
            ("http:\n  prot: 80\n", "bad.yaml:2: http.prot: unknown key 'prot'; did you mean 'port'?"),
            ("providers:\n  - {id: x, type: teleport}\n", "providers[0].type: unknown provider type 'teleport'"),
            ("units: [metric\n", "not valid YAML")
        ])
    func configCheckErrors(yaml: String, expected: String) throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let result = try MeridianBinary.run(["config", "check", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test("config check: a missing file is exit 2 and names the path")
    func configCheckMissing() throws {
        let result = try MeridianBinary.run(["config", "check", "/nonexistent/m.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/m.yaml") && result.stderr.contains("not found"))
    }

    @Test("plugins lists every shipped type")
    func plugins() throws {
        let result = try MeridianBinary.run(["plugins"])
        #expect(result.status == 0)
        for type in ["nmea-serial", "gpsd", "replay", "phone", "run-tracker", "flyers", "map-links", "gpsd-server"] {
            #expect(result.stdout.contains("  \(type) — "), "missing \(type)")
        }
    }
}
