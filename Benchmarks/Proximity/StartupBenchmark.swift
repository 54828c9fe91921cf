import Foundation
import MeridianCore
import MeridianTesting

/// Times `meridian serve` (the real binary) starting on a database it has to itself: from launch to the
/// first `/health` answer and to the first nearby answer that is correct (the ids the in-process search
/// gave), with its resident memory then.
///
/// The first start after the import checks the whole file in the background (the import stamped the file it
/// created) and builds nothing (the import stored the search index); it is stopped with SIGTERM, which stamps the
/// checked file. The restarts that follow are what a service restarted by its supervisor, or started
/// again after an upgrade, does. Then the starts after anything but a clean stop: after `kill -9`, after
/// `meridian runs import` wrote the file, and after `sqlite3` changed a flyer's title (each waits for the
/// background check before it is stopped, so that the next start finds the file as a checked service left it).
struct StartupBenchmark {
    let binary: String
    let database: String
    let directory: URL
    let center: Coordinate
    let radius: Double
    let limit: Int
    let expected: [String]
    var restarts = 3
    /// The flyers consumer's `database` (a `postgres://` URL), when the flyers are not in the store's file.
    var flyersDatabase: String?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One start: milliseconds to `/health`, to the first correct answer, resident MB then, and what the log says.
    struct Start {
        var health: Double
        var nearby: Double
        var residentMB: Double
        var log: String
        /// On PostGIS, which answers from the start: when the cache had read (or built) the search index, and RSS then.
        var cache: (milliseconds: Double, residentMB: Double)?

        var line: String {
            let index =
                log.contains("stored search index read") ? "stored search index read" : "search index not read back"
            let check =
                log.contains("was not closed cleanly")
                ? "whole-file check in the background, writes held until it passed"
                : log.contains("as this service left it after its last check")
                    ? "whole-file check in the background" : "whole-file check before serving"
            let cached = cache.map {
                ", in-memory cache ready after \(NumberText.fixed($0.milliseconds, decimals: 0)) ms, RSS then \(NumberText.fixed($0.residentMB, decimals: 0)) MB"
            }
            return
                "/health after \(NumberText.fixed(health, decimals: 0)) ms, first correct nearby answer after \(NumberText.fixed(nearby, decimals: 0)) ms, "
                + "RSS then \(NumberText.fixed(residentMB, decimals: 0)) MB\(cached ?? "") (\(index); \(check))"
        }
    }

    func run(_ output: (String) -> Void) async throws {
        let first = try await start()
        output("meridian serve, first start after the import: " + first.line)
        var again: [Start] = []
        for number in 1...restarts {
            let start = try await start()
            again.append(start)
            output("meridian serve, restart \(number): " + start.line)
        }
        let median = again.sorted { $0.nearby < $1.nearby }[again.count / 2]
        output(
            "meridian serve restart (median of \(restarts)): ready after \(NumberText.fixed(median.nearby, decimals: 0)) ms, RSS \(NumberText.fixed(median.residentMB, decimals: 0)) MB"
        )
        // The starts after an unclean stop are about the SpatiaLite file.
        guard flyersDatabase == nil else { return }
        _ = try await start(killed: true)
        output("meridian serve after kill -9: " + (try await start(waitingForCheck: true)).line)
        let gpx = directory.appendingPathComponent("startup-run.gpx")
        try Self.walk.write(to: gpx, atomically: true, encoding: .utf8)
        try runTool(binary, ["runs", "import", gpx.path, "--db", database])
        output("meridian serve after meridian runs import: " + (try await start(waitingForCheck: true)).line)
        try runTool("/usr/bin/sqlite3", [database, "UPDATE flyers SET title = title || ' (edited)' WHERE rowid = 1"])
        output("meridian serve after a write by sqlite3: " + (try await start(waitingForCheck: true)).line)
    }

    /// A three-point walk for `meridian runs import`.
    static let walk = """
        <?xml version="1.0"?><gpx version="1.1" creator="meridian-bench"><trk><trkseg>
        <trkpt lat="48.1000" lon="11.5000"><time>2024-05-01T08:00:00Z</time></trkpt>
        <trkpt lat="48.1005" lon="11.5000"><time>2024-05-01T08:00:30Z</time></trkpt>
        <trkpt lat="48.1010" lon="11.5000"><time>2024-05-01T08:01:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """

    /// Runs `tool` with `arguments` (its report left out of the benchmark's) and fails unless it exits with 0.
    private func runTool(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }

    /// Launches the service, waits for a correct answer, measures, and stops it: with SIGTERM (a clean stop, after
    /// the background check said what it found with `waitingForCheck`), or with SIGKILL when `killed`.
    private func start(killed: Bool = false, waitingForCheck: Bool = false) async throws -> Start {
        let port = try FreePort.next()
        let config = directory.appendingPathComponent("serve.yaml")
        let token = "startup-benchmark-token-0123456789"
        let flyersOptions = flyersDatabase.map { "    database: '\($0)'\n" } ?? ""
        try
            "http:\n  port: \(port)\n  token: \(token)\nstore:\n  path: \(database)\nlog_level: debug\nconsumers:\n  - type: flyers\n\(flyersOptions)"
            .write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--config", config.path]
        let log = directory.appendingPathComponent("serve.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw Failure(description: "cannot create \(log.path)")
        }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        process.standardOutput = logHandle
        process.standardError = logHandle
        let path =
            "/v1/flyers/nearby?lat=\(NumberText.trimmed(center.latitude, decimals: 9))&lon=\(NumberText.trimmed(center.longitude, decimals: 9))"
            + "&radius_m=\(Int(radius))&limit=\(limit)"
        let client = HTTPTestClient(port: port, headers: ["Authorization": "Bearer \(token)"])
        let launched = DispatchTime.now().uptimeNanoseconds
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        var health: UInt64?
        var nearby: UInt64?
        while nearby == nil {
            guard process.isRunning else {
                throw Failure(description: "meridian serve exited with \(process.terminationStatus); see \(log.path)")
            }
            if DispatchTime.now().uptimeNanoseconds - launched > 120_000_000_000 {
                throw Failure(description: "meridian serve gave no correct answer in 120 s")
            }
            if health == nil, (try? await client.request("GET", "/health"))?.status == 200 {
                health = DispatchTime.now().uptimeNanoseconds - launched
            }
            if health != nil, let reply = try? await client.request("GET", path), reply.status == 200,
                ids(in: reply) == expected
            {
                nearby = DispatchTime.now().uptimeNanoseconds - launched
            }
            if nearby == nil { try await Task.sleep(for: .milliseconds(2)) }
        }
        let resident = Self.residentMegabytes(process.processIdentifier)
        var cache: (milliseconds: Double, residentMB: Double)?
        while flyersDatabase != nil, cache == nil, process.isRunning,
            DispatchTime.now().uptimeNanoseconds - launched < 120_000_000_000
        {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.contains("stored search index read") || text.contains("search index built and stored") {
                cache = (
                    Double(DispatchTime.now().uptimeNanoseconds - launched) / 1e6,
                    Self.residentMegabytes(process.processIdentifier)
                )
            } else {
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        while waitingForCheck, process.isRunning,
            !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("store check:")
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        if killed { kill(process.processIdentifier, SIGKILL) } else { process.terminate() }
        process.waitUntilExit()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Start(
            health: Double(health ?? 0) / 1e6, nearby: Double(nearby ?? 0) / 1e6, residentMB: resident, log: text,
            cache: cache)
    }

    /// The `"id"` values of the items in a nearby answer, in order.
    private func ids(in reply: HTTPTestClient.Response) -> [String] {
        let items = (try? reply.json())?["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["id"] as? String }
    }

    /// VmRSS of process `pid` in MB.
    static func residentMegabytes(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
