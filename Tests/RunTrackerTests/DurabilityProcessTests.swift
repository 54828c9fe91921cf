import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `kill -9` of the real `meridian serve` while a run is being tracked from a replayed track:
/// after a restart the run continues and at most the last second of points is missing.
@Suite(.serialized) struct DurabilityProcessTests {
    struct Service {
        let process: ManagedProcess
        let port: Int
    }

    /// `meridian serve` on `config`, on the port the kernel chose for it.
    static func serve(config: URL) async throws -> Service {
        let (process, port) = try await MeridianBinary.serve(config: config.path)
        return Service(process: process, port: port)
    }

    /// Every request needs a token.
    static let token = "durability-test-token-0123456789"

    static func request(_ method: String, _ path: String, port: Int, body: String? = nil) async throws -> (
        status: Int, body: Data
    ) {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 10
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
            }.resume()
        }
    }

    struct Status: Decodable {
        var run: RunSummary
        var waitingForGps: Bool
    }

    static func status(port: Int) async throws -> Status? {
        let (code, body) = try await request("GET", "/v1/runs/active", port: port)
        guard code == 200 else { return nil }
        return try MeridianJSON.makeDecoder().decode(Status.self, from: body)
    }

    @Test func killNineDuringARunLosesAtMostOneSecond() async throws {
        let directory = try TestData.temporaryDirectory("meridian-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("meridian.sqlite").path
        let config = directory.appendingPathComponent("meridian.yaml")
        try replayedRunConfig(database: database, port: 0, token: Self.token, consumers: ["run-tracker"])
            .write(to: config, atomically: true, encoding: .utf8)

        let first = try await Self.serve(config: config)
        defer { first.process.stop() }
        let port = first.port
        let (code, body) = try await Self.request(
            "POST", "/v1/runs", port: port, body: #"{"name": "Crash test", "activity": "other"}"#)
        #expect(code == 201, "\(String(decoding: body, as: UTF8.self))")
        let started = try #require(
            try await Self.poll("50 points before the kill") {
                try await Self.status(port: port).flatMap { $0.run.pointCount >= 50 ? $0 : nil }
            })

        let killedAt = Date()
        first.process.send(SIGKILL)
        try await ManagedProcess.waitUntil(timeout: 60, "the killed service to exit") { !first.process.isRunning }

        let stored = try await RunStore(store: Store.open(path: database)).points(runID: started.run.id)
        let lastStored = try #require(stored.last)
        // Fixes arrive at about 10 Hz: everything older than one second before the kill is on disk, in order.
        #expect(
            killedAt.timeIntervalSince(lastStored.time) <= 1.0,
            "last stored point \(killedAt.timeIntervalSince(lastStored.time)) s before the kill")
        #expect(stored.map(\.sequence) == Array(0..<stored.count))

        let second = try await Self.serve(config: config)
        defer { second.process.stop() }
        let restored = try #require(
            try await Self.poll("the restored run to keep tracking") {
                try await Self.status(port: second.port).flatMap { $0.run.pointCount >= stored.count + 20 ? $0 : nil }
            })
        #expect(restored.run.id == started.run.id)
        #expect(restored.run.state == .tracking)
        #expect(restored.run.startedAt == started.run.startedAt)
        let (stopCode, _) = try await Self.request("POST", "/v1/runs/\(started.run.id)/stop", port: second.port)
        #expect(stopCode == 200)
        let final = try await RunStore(store: Store.open(path: database)).points(runID: started.run.id)
        #expect(final.count >= restored.run.pointCount)
        #expect(Array(final.prefix(stored.count)) == stored)
        #expect(Set(final.map(\.segment)).count >= 2)  // the restart broke the segment
    }

    /// Polls `probe` for up to 60 s until it returns a value.
    static func poll<T>(_ what: String, _ probe: () async throws -> T?) async throws -> T? {
        var value: T?
        try await ManagedProcess.waitUntil(timeout: 60, what) {
            value = try await probe()
            return value != nil
        }
        return value
    }
}
