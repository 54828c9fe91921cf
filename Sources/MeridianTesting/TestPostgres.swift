import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real PostgreSQL 15 server with PostGIS 3 (Debian's `postgresql-15-postgis-3`) in a temporary
/// folder owned by the `postgres` user, listening on 127.0.0.1 and a free port, for tests.
///
/// Tests run as root, so `initdb` and `postgres` run as `postgres` through `runuser -u postgres --`.
/// The superuser `postgres` signs in with `password` over TCP; `meridian_plain` is a role that may
/// connect and create tables but not extensions. `shared()` is one server for the whole test run
/// (stopped when the process exits); `start()` gives a test a server of its own to stop and restart.
public final class TestPostgres: Sendable {
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The data folder (owned by postgres).
    public let directory: URL
    /// The superuser's password.
    public let password = "meridian-test"
    /// A role without the right to create extensions (and its password).
    public static let plainRole = "meridian_plain"
    private let server = Mutex<ManagedProcess?>(nil)
    private let databaseNumber = Mutex(0)

    static let binaries = "/usr/lib/postgresql/15/bin"

    private init(port: Int, directory: URL) {
        self.port = port
        self.directory = directory
    }

    private static let sharedServer = Mutex<TestPostgres?>(nil)

    /// The server shared by every test of this run, started on first use.
    public static func shared() throws -> TestPostgres {
        try sharedServer.withLock { shared in
            if let shared { return shared }
            let started = try start()
            shared = started
            atexit { TestPostgres.stopShared() }
            return started
        }
    }

    private static func stopShared() {
        let server = sharedServer.withLock { $0 }
        server?.stop()
        server?.remove()
    }

    /// A new server of its own (initdb, a template database with PostGIS, the plain role).
    public static func start() throws -> TestPostgres {
        guard FileManager.default.isExecutableFile(atPath: "\(binaries)/initdb") else {
            throw TestSupportError("PostgreSQL 15 is not installed (\(binaries)/initdb); run scripts/bootstrap")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "meridian-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let account = getpwnam("postgres") else {
            throw TestSupportError("there is no 'postgres' user; run scripts/bootstrap")
        }
        let (uid, gid) = (account.pointee.pw_uid, account.pointee.pw_gid)
        guard chown(directory.path, uid, gid) == 0 else {
            throw TestSupportError("cannot hand \(directory.path) to postgres: errno \(errno)")
        }
        let postgres = TestPostgres(port: try FreePort.next(), directory: directory)
        let passwordFile = directory.appendingPathComponent("password")
        try Data(postgres.password.utf8).write(to: passwordFile)
        _ = chown(passwordFile.path, uid, gid)
        try postgres.runAsPostgres(
            "\(binaries)/initdb",
            [
                "-D", postgres.dataDirectory, "-U", "postgres", "--pwfile", passwordFile.path,
                "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C"
            ])
        do {
            try postgres.launch()
            try postgres.psql("CREATE ROLE \(plainRole) LOGIN PASSWORD '\(postgres.password)'")
            try postgres.psql("CREATE DATABASE meridian_template")
            try postgres.psql("CREATE EXTENSION postgis", database: "meridian_template")
        } catch {
            postgres.stop()
            postgres.remove()
            throw error
        }
        return postgres
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    /// Starts the server process (again, after `stop()`) and waits until it accepts connections.
    public func launch() throws {
        let process = try ManagedProcess(
            "runuser",
            [
                "-u", "postgres", "--", "\(Self.binaries)/postgres", "-D", dataDirectory,
                "-p", "\(port)", "-k", directory.path, "-c", "listen_addresses=127.0.0.1",
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"
            ])
        server.withLock { $0 = process }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard process.isRunning else { throw TestSupportError("PostgreSQL exited at start: \(process.output())") }
            if (try? runAsPostgres("\(Self.binaries)/pg_isready", ["-q", "-h", "127.0.0.1", "-p", "\(port)"])) != nil {
                return
            }
            usleep(50_000)
        }
        throw TestSupportError("PostgreSQL did not accept connections within 30 s: \(process.output())")
    }

    /// Stops the server by the postmaster's PID (fast shutdown) and waits until it has exited.
    public func stop() {
        guard let process = server.withLock({ $0 }) else { return }
        if let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line.trimmingCharacters(in: .whitespaces))
        {
            kill(pid, SIGINT)
        }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        process.stop()
        server.withLock { $0 = nil }
    }

    /// Deletes the data folder (after `stop()`).
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new, empty database; with `postgis` it already has the extension (copied from a template).
    public func createDatabase(postgis: Bool = true) throws -> String {
        let name = databaseNumber.withLock { number -> String in
            number += 1
            return "meridian_\(getpid())_\(number)"
        }
        try psql("CREATE DATABASE \(name) OWNER \(Self.plainRole) \(postgis ? "TEMPLATE meridian_template" : "")")
        return name
    }

    /// The `postgres://` URL of `database` for `user` (the superuser by default).
    public func url(_ database: String, user: String = "postgres", password: String? = nil) -> String {
        "postgres://\(user):\(password ?? self.password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Runs SQL through `psql` as the superuser over the server's socket; returns its output.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try runAsPostgres(
            "/usr/bin/psql",
            [
                "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-p", "\(port)",
                "-d", database, "-c", sql
            ])
    }

    /// Runs `executable` as postgres and waits; throws with its output when it fails.
    @discardableResult
    private func runAsPostgres(_ executable: String, _ arguments: [String]) throws -> String {
        let process = try ManagedProcess(
            "runuser", ["-u", "postgres", "--", executable] + arguments, currentDirectory: directory)
        process.waitUntilExit()
        let output = process.output()
        guard process.exitStatus == 0 else {
            throw TestSupportError(
                "\(executable) \(arguments.joined(separator: " ")) failed (\(process.exitStatus ?? -1)): \(output)")
        }
        return output
    }
}
