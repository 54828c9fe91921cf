import Foundation
import MeridianTesting
import Testing

@testable import MeridianCore

@Suite("Configuration")
struct ConfigTests {
    private struct SerialOptions: Decodable {
        var device: String
        var baud: Int?
        var checksum: Checksum?
        enum Checksum: String, ConfigEnum { case required, optional }
    }

    private let valid = """
        http:
          host: 127.0.0.1
          port: 8080
        store:
          path: data/test.sqlite
        units: imperial
        providers:
          - id: garmin
            type: nmea-serial
            priority: 10
            device: /dev/ttyUSB0
            baud: 4800
          - id: backup
            type: gpsd
            stale_after: 5
        consumers:
          - type: run-tracker
        """

    @Test("a valid file: core keys, plugin entries and their own options")
    func validFile() throws {
        let config = try ConfigLoader.parse(valid, file: "test.yaml")
        #expect(config.units == .imperial)
        // A relative path starts at the configuration file's folder (here the working directory).
        #expect(config.store.path == FileManager.default.currentDirectoryPath + "/data/test.sqlite")
        #expect(config.providers.map(\.id) == ["garmin", "backup"])
        #expect(config.providers[0].priority == 10 && config.providers[1].staleAfter == 5)
        #expect(config.providers[1].staleAfter == 5 && config.providers[0].staleAfter == 3)
        #expect(config.consumers.map(\.id) == ["run-tracker"])
        let options = try config.providers[0].options.decode(SerialOptions.self)
        #expect(options.device == "/dev/ttyUSB0" && options.baud == 4800)
    }

    @Test("time_zone takes an IANA name; anything else is an error naming the key")
    func timeZone() throws {
        #expect(try ConfigLoader.parse("time_zone: Europe/Berlin\n").timeZone.identifier == "Europe/Berlin")
        #expect(try ConfigLoader.parse("units: metric\n").timeZone == .current)
        #expect { try ConfigLoader.parse("time_zone: Mars/Olympus\n", file: "c.yaml") } throws: { error in
            "\(error)".contains("c.yaml:1: time_zone: 'Mars/Olympus' is not a time zone")
        }
    }

    @Test("an unknown key in a plugin's options names the path and line and suggests the right key")
    func unknownPluginKey() throws {
        let config = try ConfigLoader.parse(
            valid.replacingOccurrences(of: "baud: 4800", with: "buad: 4800"), file: "test.yaml")
        let error = try #require(throws: ConfigError.self) {
            try config.providers[0].options.decode(SerialOptions.self)
        }
        #expect(error.path == "providers[0].buad")
        #expect(error.line == 12)
        #expect(error.message.contains("did you mean 'baud'"))
        #expect(error.description.hasPrefix("test.yaml:12: providers[0].buad:"))
    }

    @Test("an unknown top-level or section key is an error")
    func unknownCoreKey() {
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.parse("htpp:\n  port: 1\n") }
        #expect(error?.path == "htpp")
        let nested = #expect(throws: ConfigError.self) { try ConfigLoader.parse("http:\n  prot: 8080\n") }
        #expect(nested?.path == "http.prot" && nested?.line == 2)
        #expect(nested?.message.contains("did you mean 'port'") == true)
    }

    @Test(
        "wrong types say what was expected",
        arguments: [
            ("http:\n  port: eighty\n", "http.port", "expected a whole number, found 'eighty'"),
            ("units: metrics\n", "units", "expected one of: metric, imperial"),
            ("providers:\n  id: x\n", "providers", "expected a list"),
            ("providers:\n  - id: a\n    type: gpsd\n    priority: high\n", "providers[0].priority", "whole number"),
            ("providers:\n  - type: gpsd\n", "providers[0]", "missing required key 'id'"),
            ("providers:\n  - id: a\n", "providers[0]", "missing required key 'type'"),
            ("providers:\n  - {id: a, type: gpsd}\n  - {id: a, type: gpsd}\n", "providers[1].id", "duplicate id 'a'"),
            ("http:\n  port: 70000\n", "http.port", "not a TCP port"),
            ("log_level: loud\n", "log_level", "not a log level"),
            ("providers:\n  - {id: a, type: gpsd, stale_after: 0}\n", "providers[0].stale_after", "more than 0")
        ])
    func wrongTypes(yaml: String, path: String, fragment: String) {
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.parse(yaml) }
        #expect(error?.path == path)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test(
        "plugin option type errors name the option",
        arguments: [
            ("device: /dev/x\nbaud: fast\n", "options.baud", "expected a whole number, found 'fast'"),
            ("device: /dev/x\nchecksum: maybe\n", "options.checksum", "expected one of: required, optional"),
            ("baud: 4800\n", "options", "missing required key 'device'")
        ])
    func pluginOptionErrors(yaml: String, path: String, fragment: String) throws {
        let options = try PluginOptions(yaml: yaml)
        let error = #expect(throws: ConfigError.self) { try options.decode(SerialOptions.self) }
        #expect(error?.path == path)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("invalid YAML reports the line")
    func invalidYAML() {
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.parse("http:\n  port: [1, 2\n") }
        #expect(error?.message.contains("not valid YAML") == true)
        #expect(error?.line != nil)
    }

    @Test("a missing file says how to choose one")
    func missingFile() {
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(path: "/nonexistent/meridian.yaml", environment: [:])
        }
        #expect(error?.description.contains("/nonexistent/meridian.yaml") == true)
        #expect(error?.message.contains("MERIDIAN_CONFIG") == true)
    }

    @Test("environment variables override the file")
    func environmentOverrides() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("m.yaml")
        try valid.write(to: file, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(
            path: file.path, environment: ["MERIDIAN_TOKEN": "s3cret-token-0123", "MERIDIAN_DB": "/tmp/x.sqlite"])
        #expect(config.http.token == "s3cret-token-0123" && config.store.path == "/tmp/x.sqlite")
        #expect(ConfigLoader.resolvePath(nil, environment: ["MERIDIAN_CONFIG": file.path]) == file.path)
        #expect(
            ConfigLoader.resolvePath("explicit.yaml", environment: ["MERIDIAN_CONFIG": file.path]) == "explicit.yaml")
        #expect(ConfigLoader.resolvePath(nil, environment: [:]) == "Config/meridian.yaml")
    }

    @Test("an empty options section decodes to defaults; NoOptions rejects any key")
    func noOptions() throws {
        _ = try PluginOptions(yaml: "").decode(NoOptions.self)
        let error = #expect(throws: ConfigError.self) { try PluginOptions(yaml: "colour: red").decode(NoOptions.self) }
        #expect(error?.path == "options.colour")
    }

    @Test("the shipped default configuration parses")
    func defaultConfig() throws {
        let file = TestData.repositoryRoot.appendingPathComponent("Config/meridian.yaml").path
        let config = try ConfigLoader.load(path: file, environment: [:])
        #expect(config.http.isLoopback)
        #expect(!config.providers.isEmpty)
    }
}

@Suite("Configuration: web")
struct WebConfigTests {
    @Test("web.tile_url turns on a basemap; its host becomes the pages' image source")
    func tileURL() throws {
        let config = try ConfigLoader.parse(
            "web:\n  tile_url: https://{s}.tile.example.org/{z}/{x}/{y}.png\n  tile_attribution: © Example\n")
        #expect(config.web.tileURL == "https://{s}.tile.example.org/{z}/{x}/{y}.png")
        #expect(config.web.tileSource == "https://*.tile.example.org")
        #expect(try ConfigLoader.parse("units: metric\n").web == WebSettings())
        #expect(WebSettings(tileURL: "http://localhost:8081/t/{z}/{x}/{y}.png").tileSource == "http://localhost:8081")
    }

    @Test("a bad tile URL or key is an error naming web.tile_url and what to write")
    func badTileURL() {
        for (yaml, expected) in [
            ("web:\n  tile_url: ftp://x/{z}/{x}/{y}\n", "not an http or https URL"),
            ("web:\n  tile_url: https://tiles.example.org/{z}/{x}.png\n", "has no {y}"),
            ("web:\n  tile_url: \"https://tiles.example.org/{z}/{x}/{y}.png' onerror='x\"\n", "contains"),
            ("web:\n  tile_url: https://{z}.example/{x}/{y}/{z}\n", "plain host name"),
            ("web:\n  tile_attribution: x\n", "web.tile_attribution"),
            ("web:\n  tiles: x\n", "tiles")
        ] {
            #expect(throws: ConfigError.self, "\(yaml)") { try ConfigLoader.parse(yaml) }
            do {
                _ = try ConfigLoader.parse(yaml)
            } catch {
                #expect(error.description.contains(expected), "\(error.description)")
                #expect(error.description.contains("web."), "\(error.description)")
            }
        }
    }
}
