import Foundation
import Logging
import MeridianCore
import MeridianTesting
import Testing

@testable import FlyerProximity

@Suite("PostGIS: an outage is served from the cache or answered 503, recovery by itself, clear errors for bad set-ups")
struct PostGISFaultTests {
    /// Runs `body` with a PostgreSQL server of its own (stopped and restarted by the test) and a new database's URL.
    private func withOwnServer(_ body: (TestPostgres, String) async throws -> Void) async throws {
        let postgres = try TestPostgres.start()
        defer {
            postgres.stop()
            postgres.remove()
        }
        try await body(postgres, postgres.url(try postgres.createDatabase()))
    }

    @Test(
        "PostgreSQL stopped mid-run: stale reads from the warm cache, 503 for writes, no crash; restarted: recovered within 10 s"
    )
    func outageAndRecovery() async throws {
        try await withOwnServer { postgres, url in
            try await FlyerServer.with(.postgis(url: url)) { server in
                #expect(try await server.send("POST", "/v1/flyers", FlyerIDTests.feature(id: "kept")).status == 201)
                postgres.stop()
                try await OtherWritersTests.within(10, "the service to notice the outage") {
                    server.plugin?.catalog.report.state == "unavailable"
                }

                let nearby = try await server.send("GET", "/v1/flyers/nearby?lat=52.5&lon=13.4&radius_m=1000")
                #expect(nearby.status == 200, "\(nearby.text)")
                #expect(try nearby.json()["stale"] as? Bool == true)
                #expect(try nearby.items().compactMap { $0["id"] as? String } == ["kept"])
                let listed = try await server.send("GET", "/v1/flyers")
                #expect(try listed.json()["stale"] as? Bool == true)
                // Without a location, by title, from the cache as well.
                let titled = try await server.send("GET", "/v1/flyers/nearby?q=shop")
                #expect(titled.status == 200, "\(titled.text)")
                #expect(try titled.json()["stale"] as? Bool == true)
                #expect(try titled.items().compactMap { $0["id"] as? String } == ["kept"])
                let one = try await server.send("GET", "/v1/flyers/kept")
                #expect(one.status == 200 && one.headers["meridian-stale"] == "true")

                for (method, path, body) in [
                    ("POST", "/v1/flyers", FlyerIDTests.feature(id: "new")), ("DELETE", "/v1/flyers/kept", nil),
                    ("PUT", "/v1/flyers/kept", FlyerIDTests.feature(id: "kept", title: "Changed"))
                ] {
                    let answer = try await server.send(method, path, body)
                    #expect(answer.status == 503, "\(method) \(path): \(answer.text)")
                    #expect(try answer.error().code == "database_unavailable")
                    #expect(answer.headers["retry-after"] != nil)
                }
                let providers = try await server.send("GET", "/v1/providers")
                let consumers = try providers.json()["consumers"] as? [[String: Any]] ?? []
                let state = consumers.first?["database"] as? [String: Any]
                #expect(state?["backend"] as? String == "postgis" && state?["state"] as? String == "unavailable")
                #expect((state?["problem"] as? String)?.isEmpty == false)
                let health = try await server.send("GET", "/health")
                let databases = try health.json()["databases"] as? [String: [String: Any]]
                #expect(
                    databases?["flyers"]?["state"] as? String == "unavailable"
                        && databases?["flyers"]?["cache"] as? String == "warm")

                try postgres.launch()
                try await OtherWritersTests.within(10, "writes to work again") {
                    try await server.send("POST", "/v1/flyers", FlyerIDTests.feature(id: "after")).status == 201
                }
                try await OtherWritersTests.within(10, "fresh answers") {
                    let answer = try await server.send("GET", "/v1/flyers/nearby?lat=52.5&lon=13.4&radius_m=1000")
                    return try answer.json()["stale"] == nil && answer.items().count == 2
                }
            }
        }
    }

    @Test(
        "started while PostgreSQL is down: reads and writes are 503 until it is up, then the service serves by itself")
    func startWhileDown() async throws {
        try await withOwnServer { postgres, url in
            postgres.stop()
            let hostStore = try TemporaryStore()
            defer { hostStore.remove() }
            var registry = PluginRegistry()
            registry.register(FlyerPlugin.registration)
            let yaml = "consumers:\n  - {type: flyers, database: '\(url)'}\n"
            let server = try await TestServer.start(yaml: yaml, registry: registry, store: hostStore.store)
            try await server.run { server in
                let flyers = FlyerServer(server: server)
                try await OtherWritersTests.within(10, "the outage to be known") {
                    flyers.plugin?.catalog.report.state == "unavailable"
                }
                let read = try await flyers.send("GET", "/v1/flyers/nearby?lat=1&lon=1")
                #expect(read.status == 503, "\(read.text)")
                #expect(try read.error().code == "database_unavailable")
                #expect(try await flyers.send("POST", "/v1/flyers", FlyerIDTests.feature(id: "x")).status == 503)
                try postgres.launch()
                try await flyers.waitUntilWarm(timeout: 10)
                #expect(try await flyers.send("POST", "/v1/flyers", FlyerIDTests.feature(id: "x")).status == 201)
            }
        }
    }

    @Test(
        "PostgreSQL frozen mid-import (its process stopped): the write is given up after its allowance and rolled back"
    )
    func frozenDuringImport() async throws {
        let server = try TestPostgres.shared()
        let database = try server.createDatabase()
        let store = try await PostGISFlyerStore.open(url: server.url(database), logger: Logger(label: "test"))
        defer { Task { await store.close() } }
        var csv = "id,title,description,lat,lon\n"
        for number in 0..<400_000 {
            csv +=
                "f\(number),Flyer \(number),A flyer to fill the stream,\(Double(number % 80)),\(Double(number % 170))\n"
        }
        let reader = try CSVFlyerReader(Data(csv.utf8))
        let importing = Task {
            try await PostGISImport(store: store, stepAllowance: 2).write(from: reader, mode: .upsert, progress: nil)
        }
        var backend: Int32?
        try await OtherWritersTests.within(20, "the import's COPY to start") {
            let pid = try server.psql(
                #"SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY "flyers"%' AND state = 'active'"#,
                database: database)
            backend = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines))
            return backend != nil
        }
        let frozen = try #require(backend)
        #expect(kill(frozen, SIGSTOP) == 0)
        let stopped = ContinuousClock.now
        // Bounded here too, so that a write that never gives up fails the test instead of hanging it.
        let failure = await #expect(throws: FlyerStoreError.self) {
            _ = try await withDeadline(30) { try await importing.value }
        }
        let waited = ContinuousClock.now - stopped
        #expect(kill(frozen, SIGCONT) == 0)
        #expect(waited < .seconds(15), "gave up after \(waited)")
        #expect(
            failure?.description.contains("stopped answering during the write") == true,
            "\(String(describing: failure))")
        #expect(
            failure?.description.contains("given up") == true && failure?.description.contains("rolled back") == true)
        try await OtherWritersTests.within(20, "the stopped transaction to be rolled back") {
            try server.psql("SELECT count(*) FROM flyers", database: database)
                .trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        }
        // The store works on, on another connection of its pool.
        let few = "id,title,lat,lon\nafter,After,1,2\n"
        #expect(try await store.write(from: try CSVFlyerReader(Data(few.utf8)), mode: .upsert, progress: nil) == 1)
    }

    @Test(
        "the store closed mid-import (a service stopping): the process goes on, the import fails and is rolled back"
    )
    func closedDuringImport() async throws {
        /// 10,000 flyers, then (for `gate`) 10,000 more: the COPY streams the first batch and waits for the next.
        struct GatedSource: FlyerSource {
            let gate: DispatchSemaphore
            var number = 0
            var fractionRead: Double { Double(number) / 20_000 }
            mutating func next() throws(FlyerInputError) -> Flyer? {
                if number == 10_000 { gate.wait() }
                guard number < 20_000 else { return nil }
                number += 1
                return Flyer(id: "gated\(number)", title: "Gated", geometry: .point(.zero))
            }
        }
        let server = try TestPostgres.shared()
        let database = try server.createDatabase()
        let store = try await PostGISFlyerStore.open(url: server.url(database), logger: Logger(label: "test"))
        let gate = DispatchSemaphore(value: 0)
        let importing = Task {
            try await store.write(from: GatedSource(gate: gate), mode: .upsert, progress: nil)
        }
        try await OtherWritersTests.within(20, "the import's COPY to start") {
            try server.psql(
                #"SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY "flyers"%'"#,
                database: database
            ).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        // postgres-nio stops the process (a failed precondition) when a connection closes in the middle of a COPY.
        await store.close()
        gate.signal()
        let failure = await #expect(throws: FlyerStoreError.self) { _ = try await importing.value }
        #expect(failure?.description.contains("closing") == true, "\(String(describing: failure))")
        try await OtherWritersTests.within(20, "the import to be rolled back") {
            try server.psql("SELECT count(*) FROM flyers", database: database)
                .trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        }
        // Once the write has ended, the pool stops: no session of the store is left on the server.
        try await OtherWritersTests.within(20, "the store's connections to close") {
            try server.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                database: database
            ).trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        }
    }

    @Test(
        "a write or delete while another write holds the flyer table waits its allowance, then says the database is busy"
    )
    func writeBehindAnotherWrite() async throws {
        let server = try TestPostgres.shared()
        let database = try server.createDatabase()
        let store = try await PostGISFlyerStore.open(url: server.url(database), logger: Logger(label: "test"))
        defer { Task { await store.close() } }
        // Another session holds the table for 8 s, as a long import elsewhere does.
        let holder = Thread {
            _ = try? server.psql(
                "BEGIN; LOCK TABLE flyers IN EXCLUSIVE MODE; SELECT pg_sleep(8); COMMIT;", database: database)
        }
        holder.start()
        try await OtherWritersTests.within(10, "the other session to hold the table") {
            try server.psql(
                "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'flyers' AND l.mode = 'ExclusiveLock' AND l.granted",
                database: database
            ).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        let few = "id,title,lat,lon\nbehind,Behind,1,2\n"
        let started = ContinuousClock.now
        let failure = await #expect(throws: FlyerStoreError.self) {
            _ = try await PostGISImport(store: store, stepAllowance: 2).write(
                from: try CSVFlyerReader(Data(few.utf8)), mode: .upsert, progress: nil)
        }
        #expect(failure == .busy, "\(String(describing: failure))")
        #expect(ContinuousClock.now - started < .seconds(6))
        // A delete meanwhile is busy too, and is not left queued to happen once the table is free.
        let deleting = ContinuousClock.now
        let refused = await #expect(throws: FlyerStoreError.self) { _ = try await store.delete(id: "behind") }
        #expect(refused == .busy, "\(String(describing: refused))")
        #expect(ContinuousClock.now - deleting < .seconds(5))
        // Once the other write is done, the same write goes through.
        try await OtherWritersTests.within(20, "the write to go through after the other one") {
            (try? await store.write(from: try CSVFlyerReader(Data(few.utf8)), mode: .upsert, progress: nil)) == 1
        }
    }

    @Test(
        "a URL of another kind, a URL without user or database, wrong credentials and a database without PostGIS are clear errors"
    )
    func clearErrors() async throws {
        #expect(throws: PostgresLocationError.self) { try PostgresLocation(url: "mysql://user@host/db") }
        let other = try #require(throws: PostgresLocationError.self) {
            try PostgresLocation(url: "mysql://user:secret@host/db")
        }
        #expect(other.description.contains("only PostgreSQL") && !other.description.contains("secret"))
        #expect(throws: PostgresLocationError.self) { try PostgresLocation(url: "postgres://host/db") }
        #expect(throws: PostgresLocationError.self) { try PostgresLocation(url: "postgres://user@host/") }
        #expect(throws: PostgresLocationError.self) {
            try PostgresLocation(url: "postgres://user@host/db?sslmode=verify-full")
        }
        let parsed = try PostgresLocation(url: "postgresql://me:p%40ss@db.example:6543/flyers?sslmode=require")
        #expect(
            parsed.user == "me" && parsed.password == "p@ss" && parsed.port == 6543 && parsed.database == "flyers"
                && parsed.requiresTLS)

        let server = try TestPostgres.shared()
        let database = try server.createDatabase()
        let wrong = try await #require(throws: FlyerStoreError.self) {
            _ = try await PostGISFlyerStore.open(
                url: server.url(database, password: "wrong"), logger: Logger(label: "test"))
        }
        #expect(wrong.description.contains("refused the sign-in of user 'postgres'"), "\(wrong)")

        let bare = try server.createDatabase(postgis: false)
        let refused = try await #require(throws: FlyerStoreError.self) {
            _ = try await PostGISFlyerStore.open(
                url: server.url(bare, user: TestPostgres.plainRole), logger: Logger(label: "test"))
        }
        #expect(
            refused.description.contains("PostGIS is not installed")
                && refused.description.contains("CREATE EXTENSION postgis"), "\(refused)")
        // A superuser installs it.
        let installed = try await PostGISFlyerStore.open(url: server.url(bare), logger: Logger(label: "test"))
        #expect(try await installed.lastChange() == 0)
        await installed.close()

        let folder = try TestData.temporaryDirectory("meridian-url")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try ManagedProcess(
            MeridianBinary.path, ["flyers", "get", "x", "--db", "mysql://user@host/db"], currentDirectory: folder)
        process.waitUntilExit()
        #expect(process.exitStatus == 2)
        #expect(
            process.output().contains("--db: ") && process.output().contains("only PostgreSQL"), "\(process.output())")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
