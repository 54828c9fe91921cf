import Foundation
import MeridianTesting
import Testing

/// Nothing the user gives is dropped without a word: a place's name, a search centre, a file's format.
@Suite("a place's name, a search centre and a file's format are used or refused aloud")
struct NamesAndFormatsTests {
    @Test("maplink --to with --name (its own first example) links to the named place")
    func maplinkName() throws {
        let result = try MeridianBinary.run(["maplink", "--to", "48.8584,2.2945", "--name", "Tour Eiffel"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "https://maps.apple.com/place?coordinate=48.8584,2.2945&name=Tour%20Eiffel\n")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("maplink --name with --near searches near the point")
    func maplinkNear() throws {
        let result = try MeridianBinary.run(["maplink", "--name", "Bakery", "--near", "48.85,2.35"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "https://maps.apple.com/search?query=Bakery&center=48.85,2.35\n")
    }

    @Test(
        "a link that cannot carry the name or the centre says so on stderr",
        arguments: [
            (["--to", "48.8584,2.2945", "--name", "Tour Eiffel", "--from", "48.85,2.35"], "--name"),
            (["--to", "48.8584,2.2945", "--name", "Tour Eiffel", "--mode", "walking"], "--name"),
            (["--name", "Bakery", "--near", "48.85,2.35", "--style", "google"], "--near"),
            (["--to", "48.8584,2.2945", "--name", "Tour Eiffel", "--style", "osm"], "--name")
        ])
    func maplinkNote(arguments: [String], option: String) throws {
        let result = try MeridianBinary.run(["maplink"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("cannot carry \(option)"), "\(result.stderr)")
        #expect(!result.stdout.contains("Tour") && !result.stdout.contains("center="), "\(result.stdout)")
    }

    /// A database with one imported run, and its id.
    static func importedRun(in directory: URL) throws -> (db: String, id: String) {
        let db = directory.appendingPathComponent("runs.sqlite").path
        let imported = try MeridianBinary.run([
            "runs", "import", TestData.url("fit/fitparse__activity-small-fenix2-run.fit").path,
            "--db", db, "--json"
        ])
        try #require(imported.status == 0, "\(imported.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any]
        let run = try #require((report?["imported"] as? [[String: Any]])?.first)
        return (db, try #require(run["id"] as? String))
    }

    @Test("runs export takes the format from the file's ending")
    func exportByExtension() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (db, id) = try Self.importedRun(in: directory)
        for (name, start) in [("run.tcx", "<TrainingCenterDatabase"), ("run.geojson", "{"), ("run.gpx", "<gpx")] {
            let file = directory.appendingPathComponent(name)
            let result = try MeridianBinary.run(["runs", "export", id, "-o", file.path, "--db", db])
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains(start), "\(name) starts with \(text.prefix(120))")
        }
    }

    @Test(
        "runs export and render refuse a file whose ending names another format",
        arguments: [
            (["export", "-o", "run.kml"], "run.kml"),
            (["export", "--format", "gpx", "-o", "run.tcx"], "does not match"),
            (["render", "-o", "route.png"], ".svg")
        ])
    func refusedExtension(arguments: [String], message: String) throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (db, id) = try Self.importedRun(in: directory)
        var command = ["runs"] + arguments + [id, "--db", db]
        if let output = command.firstIndex(of: "-o") {
            command[output + 1] = directory.appendingPathComponent(command[output + 1]).path
        }
        let result = try MeridianBinary.run(command)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            !$0.hasPrefix("runs.sqlite")
        }
        #expect(written.isEmpty, "\(written)")
    }

    @Test("flyers export refuses a --format that the file's ending contradicts")
    func flyersExport() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("f.sqlite").path
        _ = try MeridianBinary.run(["flyers", "add", "--title", "Cat", "--at", "48.85,2.35", "--db", db])
        let result = try MeridianBinary.run([
            "flyers", "export", "--format", "csv", "-o", directory.appendingPathComponent("f.geojson").path, "--db", db
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("does not match"), "\(result.stderr)")
    }
}
