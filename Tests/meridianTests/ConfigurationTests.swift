import Foundation
import MeridianTesting
import Testing

/// Paths in a configuration start at its folder; commands say which defaults they use and find the service where
/// the configuration puts it.
@Suite("configuration paths, defaults and the service's address")
struct ConfigurationTests {
    static let root = URL(fileURLWithPath: "/")

    @Test(
        "config check of the shipped files works from any working directory",
        arguments: [
            "Config/meridian.yaml", "Config/examples/serial-and-gpsd.yaml"
        ])
    func checkFromRoot(file: String) throws {
        let path = TestData.repositoryRoot.appendingPathComponent(file).path
        let result = try MeridianBinary.run(["config", "check", path], in: Self.root)
        #expect(result.status == 0, "\(result.stderr)")
        // Both keep the database in the repository's data/ folder, wherever the command runs.
        #expect(
            result.stdout.contains("store \(TestData.repositoryRoot.path)/data/meridian.sqlite"), "\(result.stdout)")
    }

    @Test("a replay file and store.path relative to the configuration's folder, served from /")
    func relativePathsFromRoot() async throws {
        let served = try await ServedInstance(extraEnvironment: ["MERIDIAN_DB": ""], currentDirectory: Self.root) {
            directory in
            try Data(contentsOf: TestData.url("nmea/garmin15x.log")).write(
                to: directory.appendingPathComponent("track.nmea"))
            return """
                http:
                  port: 0
                store:
                  path: db/meridian.sqlite
                providers:
                  - id: track
                    type: replay
                    file: track.nmea
                    speed: 0
                consumers:
                  - type: flyers
                """
        }
        defer { served.stop() }
        try await served.waitForProvider("track", state: "finished")
        #expect(
            FileManager.default.fileExists(atPath: served.directory.appendingPathComponent("db/meridian.sqlite").path))
    }

    @Test("without any configuration a command says which database it uses")
    func defaultDatabaseNamed() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try MeridianBinary.run(["flyers", "near"], in: directory)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("no configuration") && result.stderr.contains("no database at data/meridian.sqlite"),
            "\(result.stderr)")
        let named = try MeridianBinary.run(
            ["flyers", "near", "--db", directory.appendingPathComponent("f.sqlite").path], in: directory)
        #expect(!named.stderr.contains("no configuration"), "\(named.stderr)")
    }

    /// A service with the run tracker only, on a free port written in its configuration (where `runs … --config`
    /// finds it).
    static func runTracker() async throws -> ServedInstance {
        let port = try FreePort.next()
        return try await ServedInstance { _ in "http:\n  port: \(port)\nconsumers:\n  - type: run-tracker\n" }
    }

    @Test("runs commands find the service through the configuration's http.port, or MERIDIAN_SERVER")
    func runsFindTheService() async throws {
        let served = try await Self.runTracker()
        defer { served.stop() }
        let config = served.directory.appendingPathComponent("meridian.yaml").path
        // The same database as the service's: the token is read from the file `serve` made beside it.
        let database = served.directory.appendingPathComponent("meridian.sqlite").path
        let viaConfig = try MeridianBinary.run(
            ["runs", "status", "--config", config], environment: ["MERIDIAN_DB": database])
        #expect(viaConfig.status == 1)
        #expect(
            viaConfig.stderr.contains("no run is being tracked; start one with `meridian runs start`"),
            "\(viaConfig.stderr)")
        let viaEnvironment = try MeridianBinary.run(
            ["runs", "status"],
            environment: [
                "MERIDIAN_SERVER": "http://127.0.0.1:\(served.client.port)",
                "MERIDIAN_TOKEN": served.token ?? ""
            ],
            in: served.directory)
        #expect(viaEnvironment.stderr.contains("no run is being tracked"), "\(viaEnvironment.stderr)")
    }

    @Test("runs stop and resume percent-encode the run id", arguments: ["a b", "x/y?z#1", "café%"])
    func encodedIDs(id: String) async throws {
        let served = try await Self.runTracker()
        defer { served.stop() }
        let body = try JSONSerialization.data(withJSONObject: ["id": id, "name": "Encoded"])
        let started = try await served.client.request("POST", "/v1/runs", body: body)
        #expect(started.status == 201, "\(started.text)")
        let server = ["--server", "http://127.0.0.1:\(served.client.port)"]
        let token = ["MERIDIAN_TOKEN": served.token ?? ""]
        let stopped = try MeridianBinary.run(["runs", "stop", "--id", id] + server, environment: token)
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stdout.contains("id \(id)") && stopped.stdout.contains("draft"), "\(stopped.stdout)")
        let discarded = try MeridianBinary.run(["runs", "discard", "--id", id] + server, environment: token)
        #expect(discarded.status == 0 && discarded.stdout.contains("discarded draft \(id)"), "\(discarded.stderr)")
    }

    @Test("serving on a busy port says so and exits 2 before any provider starts")
    func busyPort() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try TestListener()
        defer { holder.close() }
        let config = directory.appendingPathComponent("m.yaml")
        try """
        http:
          port: \(holder.port)
        store:
          path: m.sqlite
        providers:
          - id: sample
            type: replay
            file: \(TestData.repositoryRoot.appendingPathComponent("Config/samples/sample-run.nmea").path)
        """.write(to: config, atomically: true, encoding: .utf8)
        let result = try MeridianBinary.run(["serve", "--config", config.path])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("127.0.0.1:\(holder.port) is already in use; change http.port"), "\(result.stderr)")
        #expect(!result.stderr.contains("replaying") && !result.stderr.contains("Server started"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("m.sqlite").path))
    }
}
