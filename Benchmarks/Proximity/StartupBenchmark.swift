import Foundation
import MeridianCore
import MeridianTesting

/// Times `meridian serve` (the real binary) starting on a database: from launch to the first `/health`
/// answer and to the first nearby answer that is correct (the ids the in-process search gave), and its
/// resident memory then.
struct StartupBenchmark {
    let binary: String
    let database: String
    let directory: URL
    let center: Coordinate
    let radius: Double
    let limit: Int
    let expected: [String]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run() async throws -> String {
        let port = try FreePort.next()
        let config = directory.appendingPathComponent("serve.yaml")
        try "http:\n  port: \(port)\nstore:\n  path: \(database)\nlog_level: debug\nconsumers:\n  - type: flyers\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", "--config", config.path]
        let log = directory.appendingPathComponent("serve.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        process.standardOutput = logHandle
        process.standardError = logHandle
        let path = "/v1/flyers/nearby?lat=\(NumberText.trimmed(center.latitude, decimals: 9))&lon=\(NumberText.trimmed(center.longitude, decimals: 9))"
            + "&radius_m=\(Int(radius))&limit=\(limit)"
        let client = HTTPTestClient(port: port)
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        var health: UInt64?
        var nearby: UInt64?
        while nearby == nil {
            guard process.isRunning else { throw Failure(description: "meridian serve exited with \(process.terminationStatus)") }
            if DispatchTime.now().uptimeNanoseconds - start > 120_000_000_000 { throw Failure(description: "meridian serve gave no correct answer in 120 s") }
            if health == nil, (try? await client.request("GET", "/health"))?.status == 200 { health = DispatchTime.now().uptimeNanoseconds - start }
            if health != nil, let reply = try? await client.request("GET", path), reply.status == 200, ids(in: reply) == expected {
                nearby = DispatchTime.now().uptimeNanoseconds - start
            }
            if nearby == nil { try await Task.sleep(for: .milliseconds(2)) }
        }
        let rss = residentMegabytes(process.processIdentifier)
        let milliseconds = { (value: UInt64?) in NumberText.fixed(Double(value ?? 0) / 1e6, decimals: 0) }
        // The flyers plugin logs which index answered at start: the stored one read back, or none while it is built.
        let started = (try? String(contentsOf: log, encoding: .utf8))?.contains("stored search index read") == true
            ? "stored index read" : "stored index not used, built in the background"
        return "meridian serve start-up (\(started)): /health after \(milliseconds(health)) ms, first correct nearby answer after \(milliseconds(nearby)) ms, RSS then \(NumberText.fixed(rss, decimals: 0)) MB"
    }

    /// The `"id"` values of the items in a nearby answer, in order.
    private func ids(in reply: HTTPTestClient.Response) -> [String] {
        let items = (try? reply.json())?["items"] as? [[String: Any]] ?? []
        return items.compactMap { $0["id"] as? String }
    }

    /// VmRSS of process `pid` in MB.
    private func residentMegabytes(_ pid: Int32) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }
}
