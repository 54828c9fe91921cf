import Foundation

/// `scripts/webhook-receiver` (Python's `http.server`) on 127.0.0.1 and a kernel-chosen port: it logs every POST
/// with its signature checked by Python's `hmac`, and answers, fails (503) or stalls as `mode` says.
public final class WebhookReceiver: Sendable {
    /// What the receiver logged for one request.
    public struct Request: Decodable, Sendable {
        public var id: String
        public var type: String
        public var time: String
        /// The event's payload as JSON text (keys sorted).
        public var data: String
        public var headerId: String?
        public var path: String
        /// 200, 503, or 0 for a request held without an answer (stall).
        public var status: Int
        public var signatureOk: Bool
        /// Seconds since 1970 when it arrived.
        public var arrived: Double
    }

    public let port: Int
    private let process: ManagedProcess
    private let log: URL
    private let scheme: String

    /// Starts the receiver, checking signatures with `secret`, in `mode` (`ok`, `fail` or `stall`); with `tls`
    /// (PEM files of a certificate and its key) it answers HTTPS.
    public init(secret: String, mode: String = "ok", tls: (certificate: String, key: String)? = nil) async throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID().uuidString).jsonl")
        scheme = tls == nil ? "http" : "https"
        let script = TestData.repositoryRoot.appendingPathComponent("scripts/webhook-receiver").path
        let process = try ManagedProcess(
            "python3",
            [script, "--secret", secret, "--log", log.path, "--mode", mode]
                + (tls.map { ["--tls-cert", $0.certificate, "--tls-key", $0.key] } ?? []))
        try await ManagedProcess.waitUntil(timeout: 30, "the webhook receiver to listen") {
            guard process.isRunning else { throw TestSupportError("webhook-receiver exited: \(process.output())") }
            return process.output().contains("listening ")
        }
        self.process = process
        port =
            process.output().split(separator: "\n").first { $0.hasPrefix("listening ") }
            .flatMap { Int($0.dropFirst("listening ".count)) } ?? 0
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: log)
    }

    /// The URL of `path` on this receiver.
    public func url(_ path: String = "/hook") -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// Every request logged so far (failed ones included), in arrival order.
    public func requests() -> [Request] {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? decoder.decode(Request.self, from: Data($0.utf8)) }
    }

    /// The requests answered 200 (on `path`, when given).
    public func delivered(path: String? = nil) -> [Request] {
        requests().filter { $0.status == 200 && (path == nil || $0.path == path) }
    }

    /// Switches the receiver to `mode` (`ok`, `fail` or `stall`; leaving `stall` releases the held requests).
    public func setMode(_ mode: String) async throws {
        _ = try await HTTPTestClient(port: port).request("POST", "/_control", body: Data(#"{"mode":"\#(mode)"}"#.utf8))
    }

    /// Stops the receiver process (a receiver that is down).
    public func stop() { process.stop() }
}
