import Foundation
import MeridianCore
import MeridianTesting
import Testing

/// `meridian serve` against clients that hold connections without using them, send a body a byte at a time, or
/// leave (or are left by the service stopping) while a long import runs; over real sockets.
@Suite("Hostile clients of meridian serve")
struct HostileClientTests {
    @Test(
        "connections over http.max_connections are answered 503 too_many_connections and closed; a freed place is used again"
    )
    func connectionCap() async throws {
        let served = try await ServedInstance(http: ["max_connections: 3"])
        defer { served.stop() }
        // Three connections that each have been answered once (so they are surely counted), then held idle.
        var held: [TestSocket] = []
        for _ in 0..<3 {
            let socket = try TestSocket(port: served.client.port)
            try await socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let (answer, _) = try await socket.read(timeout: 10, until: ConnectionLimitsTests.isComplete)
            #expect(try HTTPTestClient.parse(answer).status == 200)
            held.append(socket)
        }
        do {
            let extra = try TestSocket(port: served.client.port)
            try? await extra.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let (data, closed) = try await extra.readUntilClosed(timeout: 20)
            #expect(closed, "the connection over the limit stayed open")
            let refused = try HTTPTestClient.parse(data)
            #expect(refused.status == 503)
            #expect(try refused.error().code == "too_many_connections")
            #expect(try refused.error().message.contains("http.max_connections"))
        }  // the refused connection closes here; until then it counts too
        held.removeFirst()  // closes it
        let client = served.client
        try await ManagedProcess.waitUntil(timeout: 10, "a place to come free after a held connection closed") {
            (try? await client.request("GET", "/health"))?.status == 200
        }
    }

    @Test("a request body trickled a byte at a time gets a 408 and is closed after http.body_timeout")
    func slowBody() async throws {
        let served = try await ServedInstance(http: ["idle_timeout: 120", "body_timeout: 1", "body_min_rate: 100"])
        defer { served.stop() }
        let socket = try TestSocket(port: served.client.port)
        try await socket.send(
            "POST /v1/runs/import HTTP/1.1\r\nHost: 127.0.0.1\r\n\(served.authorization)Content-Type: application/gpx+xml\r\nContent-Length: 100000\r\n\r\n<"
        )
        // Before: the connection stayed open for as long as bytes kept coming (each one restarted the idle timeout).
        let (answer, closed) = try await ConnectionLimitsTests.trickle("g", to: socket)
        #expect(
            closed, "the slow body's connection was still open after 30 s: \(String(decoding: answer, as: UTF8.self))")
        let response = try HTTPTestClient.parse(answer)
        #expect(response.status == 408)
        #expect(try response.error().code == "request_timeout")
        #expect(try response.error().message.contains("http.body_min_rate"))
    }

    /// A gzip-compressed GPX of a million one-second points (a few MB; reading it takes seconds), made on a
    /// thread of its own.
    private static func longUpload() async throws -> Data {
        try await BlockingWork.onOwnThread {
            Result { try GeneratedFiles.gzip(GeneratedFiles.longGPX(points: 1_000_000), level: 1) }
        }.get()
    }

    /// Sends `body` as an import and returns the open socket once all of it is sent.
    private static func startImport(_ body: Data, to served: ServedInstance) async throws -> TestSocket {
        let socket = try TestSocket(port: served.client.port)
        try await socket.send(
            "POST /v1/runs/import?name=long HTTP/1.1\r\nHost: 127.0.0.1\r\n\(served.authorization)Content-Type: application/gzip\r\nContent-Length: \(body.count)\r\n\r\n"
        )
        try await socket.send(body)
        return socket
    }

    @Test("an import whose client went away stops, and nothing is stored")
    func clientGone() async throws {
        let upload = try await Self.longUpload()
        let served = try await ServedInstance()
        defer { served.stop() }
        do {
            let socket = try await Self.startImport(upload, to: served)
            // The service has the whole body and is reading it; the client gives up.
            let (early, _) = try await socket.read(timeout: 0.5) { !$0.isEmpty }
            #expect(early.isEmpty, "answered before the client left: \(String(decoding: early, as: UTF8.self))")
        }
        // Before: the import ran to its end and stored the run for nobody.
        try await ManagedProcess.waitUntil(timeout: 60, "the import to stop") {
            served.process.output().contains("import of 'long' stopped before it finished")
        }
        let runs = try await served.client.request("GET", "/v1/runs").json()["runs"] as? [Any]
        #expect(runs?.isEmpty == true)
    }

    @Test("SIGTERM stops a running import: its client gets 503 import_cancelled and the service exits cleanly")
    func shutdownStopsImport() async throws {
        let upload = try await Self.longUpload()
        let served = try await ServedInstance()
        defer { served.stop() }
        let socket = try await Self.startImport(upload, to: served)
        let (early, _) = try await socket.read(timeout: 0.5) { !$0.isEmpty }
        #expect(early.isEmpty, "answered before SIGTERM: \(String(decoding: early, as: UTF8.self))")
        served.process.send(SIGTERM)
        // Before: the service finished the import (tens of seconds on a debug build) and answered 201.
        let (answer, _) = try await socket.read(timeout: 60, until: ConnectionLimitsTests.isComplete)
        let response = try HTTPTestClient.parse(answer)
        #expect(response.status == 503, "\(response.text)")
        #expect(try response.error().code == "import_cancelled")
        try await ManagedProcess.waitUntil(timeout: 60, "meridian serve to exit") { !served.process.isRunning }
        #expect(served.process.exitStatus == 0, "\(served.process.output())")
    }
}
