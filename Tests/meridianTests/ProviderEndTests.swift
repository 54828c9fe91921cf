import Foundation
import MeridianTesting
import Testing

/// A replay provider that ends or fails never ends `meridian serve`: it shows `finished` (or why it cannot replay,
/// retrying with backoff) in `/v1/providers` while a healthy provider beside it keeps the position live.
@Suite("providers that end or fail under meridian serve")
struct ProviderEndTests {
    static let sample = TestData.repositoryRoot.appendingPathComponent("Config/samples/sample-run.nmea").path

    /// `meridian serve` with the bundled sample as the healthy provider and `broken` replaying `file` (written into
    /// the temporary folder by `write`).
    static func serve(file: String, loop: Bool, write: (URL) throws -> Void) async throws -> ServedInstance {
        try await ServedInstance { directory in
            try write(directory.appendingPathComponent(file))
            return """
                http:
                  port: 0
                providers:
                  - id: healthy
                    type: replay
                    priority: 10
                    file: \(sample)
                    loop: true
                    retime: true
                  - id: broken
                    type: replay
                    file: \(file)
                    speed: 0
                    loop: \(loop)
                consumers:
                  - type: run-tracker
                """
        }
    }

    /// The service is still up, serves the healthy provider's position, and stops cleanly.
    static func expectStillServing(_ served: ServedInstance) async throws {
        #expect(served.process.isRunning, "\(served.process.output())")
        try await served.waitForPosition()
        #expect(try await served.provider("healthy")?["state"] as? String == "connected")
        served.process.send(SIGTERM)
        try await ManagedProcess.waitUntil(timeout: 15, "meridian to exit after SIGTERM") { !served.process.isRunning }
        #expect(served.process.exitStatus == 0, "\(served.process.output())")
        #expect(!served.process.output().contains("ServiceGroupError"), "\(served.process.output())")
    }

    @Test("a file without loop that reaches its end shows finished")
    func finishedFile() async throws {
        let served = try await Self.serve(file: "short.nmea", loop: false) { url in
            try Data(contentsOf: TestData.url("nmea/garmin15x.log")).write(to: url)
        }
        defer { served.stop() }
        let entry = try await served.waitForProvider("broken", state: "finished")
        #expect((entry["message"] as? String)?.contains("short.nmea") == true)
        try await Self.expectStillServing(served)
    }

    @Test("a file with no fixes is retried with backoff and says why", arguments: [false, true])
    func fileWithoutFixes(loop: Bool) async throws {
        let served = try await Self.serve(file: "empty.nmea", loop: loop) { url in
            try "# a log with no sentences\n".write(to: url, atomically: true, encoding: .utf8)
        }
        defer { served.stop() }
        let entry = try await served.waitForProvider("broken", state: "disconnected")
        let message = entry["message"] as? String ?? ""
        #expect(message.contains("no replayable fixes") && message.contains("retrying in"), "\(message)")
        try await Self.expectStillServing(served)
    }

    @Test("20 MB of random bytes neither stop the service nor flood its log")
    func randomBytes() async throws {
        let served = try await Self.serve(file: "noise.nmea", loop: true) { url in
            var random = SplitMix(seed: 20)
            var bytes = [UInt8](repeating: 0, count: 20 << 20)
            for index in stride(from: 0, to: bytes.count, by: 8) {
                withUnsafeBytes(of: random.next()) { bytes.replaceSubrange(index..<index + 8, with: $0) }
            }
            try Data(bytes).write(to: url)
        }
        defer { served.stop() }
        try await served.waitForProvider("broken", state: "disconnected")
        let log = served.process.output().split(separator: "\n").filter { $0.contains("noise.nmea") }
        #expect(log.count < 20, "\(log.count) log lines about the file")
        try await Self.expectStillServing(served)
    }

    @Test("a looping file deleted while serving is retried and replays again once it is back")
    func deletedWhileLooping() async throws {
        let source = TestData.url("nmea/garmin15x.log")
        let served = try await Self.serve(file: "loop.nmea", loop: true) { url in
            try Data(contentsOf: source).write(to: url)
        }
        defer { served.stop() }
        let file = served.directory.appendingPathComponent("loop.nmea")
        try FileManager.default.removeItem(at: file)
        let entry = try await served.waitForProvider("broken", state: "disconnected")
        #expect((entry["message"] as? String)?.contains("cannot open") == true, "\(entry)")
        try Data(contentsOf: source).write(to: file)
        try await served.waitForProvider("broken", state: "connected")
        try await Self.expectStillServing(served)
    }
}

/// A small deterministic generator (SplitMix64) for test data.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
