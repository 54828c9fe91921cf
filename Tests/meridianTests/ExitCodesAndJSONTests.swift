import Foundation
import MeridianTesting
import Testing

/// The same conventions everywhere: exit 2 for bad usage, --json where a script would want it, units in
/// every distance option, counts in the right number.
@Suite("exit codes, --json answers and near-miss CSV columns of the commands")
struct ExitCodesAndJSONTests {
    @Test(
        "ArgumentParser's own usage errors exit 2 like Meridian's",
        arguments: [
            ["bogus"], ["flyers", "list", "--bogus"], ["format"], ["runs", "export"], ["gpsd", "watch", "--port", "0"]
        ])
    func usageExitCode(arguments: [String]) throws {
        let result = try MeridianBinary.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test("plugins, config check and format answer in JSON with --json")
    func jsonOutputs() throws {
        let plugins = try MeridianBinary.run(["plugins", "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(plugins.stdout.utf8)) as? [String: [[String: Any]]]
        #expect(document?["providers"]?.map { $0["type"] as? String } == ["nmea-serial", "gpsd", "replay", "phone"])
        let replay = document?["providers"]?.first { $0["type"] as? String == "replay" }
        #expect((replay?["options"] as? [[String: Any]])?.first?["required"] as? Bool == true)

        let check = try MeridianBinary.run(["config", "check", "Config/meridian.yaml", "--json"])
        #expect(check.status == 0, "\(check.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        #expect(summary?["valid"] as? Bool == true && summary?["http"] as? String == "127.0.0.1:8080")

        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.yaml")
        try "http:\n  prot: 80\n".write(to: bad, atomically: true, encoding: .utf8)
        let invalid = try MeridianBinary.run(["config", "check", bad.path, "--json"])
        #expect(invalid.status == 2)
        let error =
            (try JSONSerialization.jsonObject(with: Data(invalid.stdout.utf8)) as? [String: Any])?["error"]
            as? [String: Any]
        #expect(error?["line"] as? Int == 2 && error?["path"] as? String == "http.prot", "\(invalid.stdout)")

        let format = try MeridianBinary.run(["format", "distance", "999.96", "--json"])
        let formatted = try JSONSerialization.jsonObject(with: Data(format.stdout.utf8)) as? [String: Any]
        #expect(
            formatted?["text"] as? String == "1.0 km" && formatted?["value"] as? Double == 999.96, "\(format.stdout)")
    }

    @Test("flyers add takes a radius with a unit, and add, import, delete and list answer in JSON")
    func flyersJSON() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("f.sqlite").path
        let add = try MeridianBinary.run([
            "flyers", "add", "--title", "Market", "--at", "48.85,2.35", "--radius", "0.2km", "--id", "m", "--db", db,
            "--json"
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let feature = try JSONSerialization.jsonObject(with: Data(add.stdout.utf8)) as? [String: Any]
        #expect((feature?["properties"] as? [String: Any])?["radius_m"] as? Double == 200, "\(add.stdout)")
        let badRadius = try MeridianBinary.run([
            "flyers", "add", "--title", "X", "--at", "1,2", "--radius", "far", "--db", db
        ])
        #expect(
            badRadius.status == 2 && badRadius.stderr.contains("--radius 'far' is not a distance"),
            "\(badRadius.stderr)")

        let csv = directory.appendingPathComponent("more.csv")
        try "id,title,lat,lon\nb,Bakery,48.86,2.34\n".write(to: csv, atomically: true, encoding: .utf8)
        let imported = try MeridianBinary.run(["flyers", "import", csv.path, "--db", db, "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any]
        #expect(report?["imported"] as? Int == 1, "\(imported.stdout)")
        let text = try MeridianBinary.run(["flyers", "import", csv.path, "--db", db])
        #expect(text.stdout.hasPrefix("imported 1 flyer from "), "\(text.stdout)")

        let list = try MeridianBinary.run(["flyers", "list", "--db", db])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n")
        #expect(
            lines.count == 3 && lines[0].hasPrefix("id") && lines[1].hasPrefix("b ") && lines[2].hasPrefix("m "),
            "\(list.stdout)")
        let collection = try MeridianBinary.run(["flyers", "list", "--db", db, "--json", "--limit", "1"])
        let features =
            (try JSONSerialization.jsonObject(with: Data(collection.stdout.utf8)) as? [String: Any])?["features"]
            as? [Any]
        #expect(features?.count == 1, "\(collection.stdout)")

        let deleted = try MeridianBinary.run(["flyers", "delete", "m", "--db", db, "--json"])
        #expect(deleted.stdout == "{\"deleted\":\"m\"}\n", "\(deleted.stdout)")
    }

    @Test(
        "a CSV column that is almost right is named with the nearest known one",
        arguments: [
            ("titel", "did you mean 'title'?"), ("latt", "did you mean 'lat'?"), ("lonn", "did you mean 'lon'?")
        ])
    func csvSuggestion(column: String, hint: String) throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("f.csv")
        let header = ["id", "title", "lat", "lon"].map { Self.misspelt($0, column) }.joined(separator: ",")
        try "\(header)\n1,Cat,48.85,2.35\n".write(to: csv, atomically: true, encoding: .utf8)
        let result = try MeridianBinary.run([
            "flyers", "import", csv.path, "--db", directory.appendingPathComponent("f.sqlite").path
        ])
        #expect(result.status == 2 || result.status == 1)
        #expect(result.stderr.contains("unknown column '\(column)'; \(hint)"), "\(result.stderr)")
    }

    /// `column` in place of the known column it resembles.
    static func misspelt(_ known: String, _ column: String) -> String {
        ["titel": "title", "latt": "lat", "lonn": "lon"][column] == known ? column : known
    }

    @Test("gpsd watch -n stops after that many fixes, exit 0")
    func gpsdCount() async throws {
        try await Self.withGPSDLog { port in
            let result = try MeridianBinary.run([
                "gpsd", "watch", "--port", "\(port)", "-n", "3", "--json", "--timeout", "20"
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 3, "\(result.stdout)")
        }
    }

    @Test("gpsd watch writing into a full device ends with the write error and status 1, not a crash")
    func gpsdUnwritableOutput() async throws {
        try await Self.withGPSDLog { port in
            let result = try MeridianBinary.run(
                [
                    "-c", #"exec "$0" "$@" > /dev/full"#, try MeridianBinary.path, "gpsd", "watch", "--port", "\(port)",
                    "--timeout", "20"
                ], executable: "/bin/sh")
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("cannot write to standard output"), "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        }
    }

    /// Runs `body` with the port of a one-shot server that sends ten TPV reports as gpsd would.
    private static func withGPSDLog(_ body: (Int) async throws -> Void) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = [#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#]
        for second in 0..<10 {
            lines.append(
                #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"time":"2024-05-01T07:00:0\#(second).000Z","lat":48.1,"lon":11.5}"#
            )
        }
        let log = directory.appendingPathComponent("gpsd.json")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let port = try FreePort.next()
        let server = try ManagedProcess(
            "socat", ["-u", "FILE:\(log.path)", "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr"])
        defer { server.stop() }
        try await ManagedProcess.waitUntil(timeout: 20, "socat listening on \(port)") {
            guard server.isRunning else { throw TestSupportError("socat exited: \(server.output())") }
            return TestSocket.isListening(port: port)
        }
        try await body(port)
    }

    @Test("gpsd watch exits 1 when nothing answers, or when --timeout passes without a fix")
    func gpsdNothing() throws {
        let refused = try MeridianBinary.run(["gpsd", "watch", "--port", "\(try FreePort.next())"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("nothing answers"), "\(refused.stderr)")
        let silent = try TestListener()
        defer { silent.close() }
        let quiet = try MeridianBinary.run(["gpsd", "watch", "--port", "\(silent.port)", "--timeout", "1"])
        #expect(quiet.status == 1)
        #expect(quiet.stderr.contains("no fix from gpsd within the --timeout"), "\(quiet.stderr)")
    }
}
