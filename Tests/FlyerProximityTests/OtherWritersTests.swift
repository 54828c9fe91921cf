import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import FlyerProximity

/// Writes made by others reach a running service: the `meridian` binary on the same database and
/// a second service instance; long writes holding a SpatiaLite file give 503 `database_busy`.
@Suite("other writers: the CLI and other instances are seen within 1 s; a busy database answers 503")
struct OtherWritersTests {
    /// Runs `meridian flyers ARGUMENTS`; returns its exit status and output.
    static func meridian(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = try ManagedProcess(
            MeridianBinary.path, ["flyers"] + arguments, environment: ["PATH": "/usr/bin:/bin"])
        process.waitUntilExit()
        return (process.exitStatus ?? -1, process.output())
    }

    /// Waits until `condition` holds, for at most `seconds` (a propagation deadline, not a speed check).
    static func within(_ seconds: Double, _ what: String, _ condition: () async throws -> Bool) async throws {
        try await ManagedProcess.waitUntil(timeout: seconds, what, condition)
    }

    /// Another process (Python's sqlite3) that holds the write lock of the SpatiaLite file at `path` until stopped.
    static func holdWriteLock(_ path: String) async throws -> ManagedProcess {
        let script =
            "import sqlite3, sys, time\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.execute('BEGIN IMMEDIATE')\nprint('locked', flush=True)\ntime.sleep(120)\n"
        let process = try ManagedProcess("python3", ["-c", script, path])
        try await ManagedProcess.waitUntil(timeout: 10, "the other process to hold the write lock") {
            process.output().contains("locked")
        }
        return process
    }

    static func title(_ server: FlyerServer, _ id: String) async throws -> String? {
        let answer = try await server.send("GET", "/v1/flyers/\(id)")
        guard answer.status == 200 else { return nil }
        return (try answer.json()["properties"] as? [String: Any])?["title"] as? String
    }

    static func nearbyIDs(_ server: FlyerServer) async throws -> [String] {
        try await server.send("GET", "/v1/flyers/nearby?lat=52.52&lon=13.405&radius_m=5000").items().compactMap {
            $0["id"] as? String
        }
    }

    @Test(
        "flyers added, replaced and deleted by the meridian binary reach a running service within 1 s",
        arguments: FlyerBackend.allCases)
    func commandLineWrites(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { server, database in
            let added = try Self.meridian([
                "add", "--db", database.commandLine, "--id", "cli", "--title", "From the CLI", "--at", "52.521,13.405"
            ])
            #expect(added.status == 0, "\(added.output)")
            try await Self.within(1, "the added flyer") { try await Self.title(server, "cli") == "From the CLI" }
            #expect(try await Self.nearbyIDs(server) == ["cli"])

            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "meridian-\(UUID().uuidString.prefix(8)).csv")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data("id,title,lat,lon\ncli,Replaced,52.53,13.405\nsecond,Second,52.5201,13.405\n".utf8).write(to: file)
            let imported = try Self.meridian(["import", "--db", database.commandLine, file.path])
            #expect(imported.status == 0, "\(imported.output)")
            try await Self.within(1, "the replaced flyer") { try await Self.title(server, "cli") == "Replaced" }
            try await Self.within(1, "the new order") { try await Self.nearbyIDs(server) == ["second", "cli"] }

            let deleted = try Self.meridian(["delete", "--db", database.commandLine, "cli"])
            #expect(deleted.status == 0, "\(deleted.output)")
            try await Self.within(1, "the deletion") { try await server.send("GET", "/v1/flyers/cli").status == 404 }
            #expect(try await Self.nearbyIDs(server) == ["second"])
        }
    }

    @Test(
        "two service instances on one database: a write or delete on one is found on the other within 1 s",
        arguments: FlyerBackend.allCases)
    func twoInstances(_ backend: FlyerBackend) async throws {
        try await FlyerServer.with(backend) { first, database in
            try await FlyerServer.with(database) { second in
                let feature = FlyerIDTests.feature(id: "shared", title: "Shared")
                #expect(try await first.send("POST", "/v1/flyers", feature).status == 201)
                try await Self.within(1, "the flyer on the second instance") {
                    try await Self.title(second, "shared") == "Shared"
                }
                #expect(
                    try await second.send(
                        "PUT", "/v1/flyers/shared", FlyerIDTests.feature(id: "shared", title: "Renamed")
                    ).status == 200)
                try await Self.within(1, "the change on the first instance") {
                    try await Self.title(first, "shared") == "Renamed"
                }
                #expect(try await first.send("DELETE", "/v1/flyers/shared").status == 204)
                try await Self.within(1, "the deletion on the second instance") {
                    try await second.send("GET", "/v1/flyers/shared").status == 404
                }
            }
        }
    }

    @Test(
        "a write while another process holds the SpatiaLite file past the busy timeout is a 503 database_busy with Retry-After"
    )
    func busyService() async throws {
        let database = try FlyerBackend.spatialite.makeDatabase()
        defer { database.remove() }
        guard case .spatialite(let temporary) = database else { return }
        try await FlyerServer.with(database, busyTimeout: 0.2) { server in
            let other = try await Self.holdWriteLock(temporary.store.path)
            let answer = try await server.send("POST", "/v1/flyers", FlyerIDTests.feature(id: "late"))
            other.stop()
            #expect(answer.status == 503, "\(answer.text)")
            #expect(try answer.error().code == "database_busy")
            #expect(answer.headers["retry-after"] == "1")
            #expect(try await server.send("POST", "/v1/flyers", FlyerIDTests.feature(id: "late")).status == 201)
        }
    }

    @Test(
        "an import that cannot get the SpatiaLite file in time says the database is busy, never that a table is missing"
    )
    func busyImport() async throws {
        let temporary = try TemporaryStore()
        defer { temporary.remove() }
        _ = try SpatiaLiteFlyerStore(store: temporary.store)
        let folder = temporary.directory
        let config = folder.appendingPathComponent("busy.yaml")
        try Data("store: {path: \(temporary.store.path), busy_timeout: 0.2}\n".utf8).write(to: config)
        let file = folder.appendingPathComponent("one.csv")
        try Data("id,title,lat,lon\na,A,1,1\n".utf8).write(to: file)
        let other = try await Self.holdWriteLock(temporary.store.path)
        let loser = try Self.meridian(["import", "--config", config.path, file.path])
        other.stop()
        #expect(loser.status == 1)
        #expect(loser.output.contains("the database is busy with another write; try again"), "\(loser.output)")
        #expect(!loser.output.contains("no such table"))

        // Two real imports into a new file at once: both finish, or the loser says the database is busy.
        let fresh = folder.appendingPathComponent("fresh.sqlite").path
        let imports = try (0..<2).map { _ in
            try ManagedProcess(MeridianBinary.path, ["flyers", "import", "--db", fresh, file.path])
        }
        for process in imports {
            process.waitUntilExit()
            let output = process.output()
            #expect(!output.contains("no such table"), "\(output)")
            if process.exitStatus != 0 {
                #expect(output.contains("the database is busy with another write; try again"), "\(output)")
            }
        }
    }
}
