import Foundation
import MeridianTesting
import Testing

/// What the command line owes its users (issue 23): `--` ends options, read-only commands create no database,
/// exit codes say what happened, a misspelt top-level key is matched, and `store check --full` stays quiet.
@Suite("command-line conventions")
struct CommandLineConventionTests {
    /// A flyer database holding the Opera House, made through the binary.
    static func flyerDatabase(in directory: URL) throws -> String {
        let db = directory.appendingPathComponent("flyers.sqlite").path
        let add = try MeridianBinary.run([
            "flyers", "add", "--title", "Opera House", "--at", "-33.8568,151.2153", "--id", "opera", "--db", db
        ])
        try #require(add.status == 0, "\(add.stderr)")
        return db
    }

    @Test("`--` ends the options; what follows is taken as written, a leading minus included")
    func doubleDashEndsOptions() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Self.flyerDatabase(in: directory)
        let near = try MeridianBinary.run(["flyers", "near", "--radius", "5km", "--db", db, "--", "-33.87,151.21"])
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.contains("Opera House"), "\(near.stdout)")
        let typed = try MeridianBinary.run(["flyers", "near", "-33.87,151.21", "--radius", "5km", "--db", db])
        #expect(typed.status == 0 && typed.stdout == near.stdout, "\(typed.stdout)\(typed.stderr)")
        let distance = try MeridianBinary.run(["distance", "--json", "--", "-33.87,151.21", "-33.8568,151.2153"])
        #expect(distance.status == 0 && distance.stdout.contains("\"meters\""), "\(distance.stdout)\(distance.stderr)")
        // After `--` an option-looking word is a value, refused as a point, not as an unknown option.
        let word = try MeridianBinary.run(["distance", "--", "--json", "0,0"])
        #expect(word.status == 2 && !word.stderr.contains("unknown option"), "\(word.stderr)")
    }

    @Test(
        "read-only commands create no database; they say there is none and where they looked",
        arguments: [
            ["runs", "list"], ["runs", "records"], ["runs", "stats"], ["runs", "show", "r1"],
            ["flyers", "list"], ["flyers", "near", "48,2"], ["flyers", "export"], ["flyers", "get", "x"],
            ["maplink", "--flyer", "x"]
        ])
    func readOnlyCommandsCreateNothing(arguments: [String]) throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("absent.sqlite").path
        let result = try MeridianBinary.run(arguments + ["--db", db])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("there is no database at \(db) (from --db)"), "\(result.stderr)")
        // MeridianCLI knows no plugin's commands: the hint points at the shell's help, which lists them.
        #expect(
            result.stderr.contains("meridian help lists each plugin's commands")
                && !result.stderr.contains("import FILE"),
            "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let environment = try MeridianBinary.run(
            arguments, environment: ["MERIDIAN_DB": db, "MERIDIAN_FLYERS_DB": db], in: directory)
        #expect(
            environment.status == 1 && environment.stderr.contains("there is no database at \(db) (from MERIDIAN_"),
            "\(environment.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("a flyer that does not exist is not found (1); a negative distance and a short token are refused (2)")
    func exitCodes() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Self.flyerDatabase(in: directory)
        let missing = try MeridianBinary.run(["maplink", "--flyer", "nope", "--db", db])
        #expect(missing.status == 1 && missing.stderr.contains("no flyer with id 'nope'"), "\(missing.stderr)")
        for kind in ["distance", "duration", "speed"] {
            let negative = try MeridianBinary.run(["format", kind, "-5"])
            #expect(
                negative.status == 2 && negative.stderr.contains("negative") && negative.stdout.isEmpty,
                "\(kind): \(negative.stdout)\(negative.stderr)")
        }
        let zero = try MeridianBinary.run(["format", "distance", "--", "0"])
        #expect(zero.status == 0 && zero.stdout == "0 m\n", "\(zero.stdout)\(zero.stderr)")

        let config = directory.appendingPathComponent("token.yaml")
        try "http:\n  token: short-token\n".write(to: config, atomically: true, encoding: .utf8)
        let short = try MeridianBinary.run(["config", "check", config.path])
        #expect(
            short.status == 2 && short.stderr.contains("http.token") && short.stderr.contains("at least 16"),
            "\(short.stderr)")
        try "units: metric\n".write(to: config, atomically: true, encoding: .utf8)
        let environment = try MeridianBinary.run(
            ["config", "check", config.path], environment: ["MERIDIAN_TOKEN": "s3cret"])
        #expect(environment.status == 2 && environment.stderr.contains("MERIDIAN_TOKEN"), "\(environment.stderr)")
        let long = try MeridianBinary.run(
            ["config", "check", config.path], environment: ["MERIDIAN_TOKEN": "0123456789abcdef"])
        #expect(long.status == 0, "\(long.stderr)")
    }

    @Test("a misspelt top-level key is matched against providers and consumers too")
    func topLevelTypo() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("typo.yaml")
        try "provider:\n  - {id: a, type: replay, file: x.nmea}\n".write(to: config, atomically: true, encoding: .utf8)
        let typo = try MeridianBinary.run(["config", "check", config.path])
        #expect(
            typo.status == 2 && typo.stderr.contains("unknown key 'provider'; did you mean 'providers'?"),
            "\(typo.stderr)")
        try "bogus: 1\n".write(to: config, atomically: true, encoding: .utf8)
        let unknown = try MeridianBinary.run(["config", "check", config.path])
        #expect(
            unknown.stderr.contains(
                "expected one of: consumers, hooks, http, log_level, providers, store, time_zone, units, web"),
            "\(unknown.stderr)")
    }

    @Test("JSON numbers are rounded to what they mean: bearings 2 decimals, metres 2, coordinates 7, speeds 3")
    func jsonNumbers() throws {
        let distance = try MeridianBinary.run(["distance", "47.3,8.5", "47.362,8.6", "--json"])
        #expect(
            distance.stdout == #"{"final_bearing":47.67,"initial_bearing":47.6,"meters":10229.58}"# + "\n",
            "\(distance.stdout)")
        let replay = try MeridianBinary.run(["replay", "Config/samples/sample-run.nmea", "--json"])
        let first = replay.stdout.split(separator: "\n").first.map(String.init)
        #expect(
            first
                == #"{"time":"2024-05-04T07:30:00.000Z","lat":47.36737,"lon":8.5500083,"alt_hae":459.6,"alt_msl":412.3,"speed":2,"track":71.4,"mode":3,"quality":"gps","eph":3.63,"epv":5.45,"satellites_used":10}"#,
            "\(first ?? replay.stderr)")
    }

    @Test("output that cannot be written (a full device) ends the command with a message and status 1, not a crash")
    func unwritableOutput() throws {
        let binary = try MeridianBinary.path
        for arguments in [["replay", "Config/samples/sample-run.nmea", "--json"], ["distance", "0,0", "1,1"]] {
            let result = try MeridianBinary.run(
                ["-c", #"exec "$0" "$@" > /dev/full"#, binary] + arguments, executable: "/bin/sh")
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("cannot write"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("store check --full on a sound flyer store reports it healthy and prints no SQL errors")
    func fullCheckIsQuiet() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Self.flyerDatabase(in: directory)
        let check = try MeridianBinary.run(["store", "check", "--full", "--db", db])
        #expect(
            check.status == 0 && check.stdout.contains(": ok (integrity_check, rtreecheck, CheckSpatialIndex"),
            "\(check.stdout)")
        #expect(check.stderr.isEmpty, "\(check.stderr)")
    }
}
