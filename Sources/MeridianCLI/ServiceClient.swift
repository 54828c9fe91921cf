import ArgumentParser
import Foundation
import MeridianCore
import MeridianHTTP

/// Options of the commands that talk to the running service.
public struct ServerOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Base URL of the running service (default: MERIDIAN_SERVER, else http.host and http.port of the configuration, else http://127.0.0.1:8080)."
    )
    public var server: String?

    @Option(
        name: .long,
        help:
            "Configuration file whose http.host, http.port and http.token (else the token file beside its store.path) locate the service (default Config/meridian.yaml or MERIDIAN_CONFIG)."
    )
    public var config: String?

    @Flag(name: .long, help: "Print the JSON document instead of a summary.")
    public var json = false

    public init() {}

    /// A client for the service: `--server`, else `MERIDIAN_SERVER`, else the configuration's address, else the
    /// default one; the token is `MERIDIAN_TOKEN` (which the configuration's loading applies), else the
    /// configuration's `http.token`, else the token file `meridian serve` made beside the configuration's database.
    public func client() throws -> ServiceClient {
        let environment = ProcessInfo.processInfo.environment
        let configuration = try ConfigLookup.load(explicit: config)
        var token = environment["MERIDIAN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? configuration?.http.token
        if token == nil, let configuration, !configuration.http.openLoopback {
            token = try TokenFile.read(TokenFile.path(database: configuration.store.path))
        }
        if let base = server ?? environment["MERIDIAN_SERVER"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return ServiceClient(base: base, token: token)
        }
        guard let http = configuration?.http else {
            return ServiceClient(base: Self.defaultServer, token: token)
        }
        return ServiceClient(
            base: Self.baseURL(host: http.host, port: http.port, secure: http.tls != nil), token: token)
    }

    /// Where the service listens without any configuration.
    public static let defaultServer = "http://127.0.0.1:8080"

    /// The URL that reaches a service listening on `host` (a wildcard address is reached on loopback), over HTTPS when
    /// it is `secure` (`http.tls`).
    public static func baseURL(host: String, port: Int, secure: Bool) -> String {
        let reachable: String
        switch host {
        case "0.0.0.0", "": reachable = "127.0.0.1"
        case "::", "[::]": reachable = "[::1]"
        default: reachable = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
        return "\(secure ? "https" : "http")://\(reachable):\(port)"
    }
}

/// A small HTTP client for the running service's API (bearer token from `MERIDIAN_TOKEN` or the configuration);
/// every failure is a `CommandFailure` that says what to do.
public struct ServiceClient {
    public var base: String
    public var token: String?

    public init(base: String, token: String? = nil) {
        self.base = base
        self.token = token
    }

    /// Sends `method path` with an optional JSON body and returns the answer's body (a 2xx, else the service's error
    /// message, or the text `explaining` gives for its error code: the command line's words for an API message).
    public func send(
        _ method: String, _ path: String, body: [String: String]? = nil,
        explaining: [String: String] = [:]
    ) async throws -> Data {
        guard let endpoint = HTTPEndpoint(url: base) else {
            throw CommandFailure(
                "--server '\(base)' is not an http(s) URL such as http://127.0.0.1:8080", code: CommandFailure.usage)
        }
        var headers: [(String, String)] = []
        if let token, !token.isEmpty { headers.append(("Authorization", "Bearer \(token)")) }
        var bytes: [UInt8]?
        if let body {
            headers.append(("Content-Type", "application/json"))
            bytes = Array(try JSONEncoder().encode(body))
        }
        let prefix = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        let connection = HTTPClientConnection(
            endpoint: endpoint, timeout: Self.timeout, maximumBodyBytes: Self.maximumAnswerBytes)
        defer { connection.close() }
        let answer: HTTPClientAnswer
        do {
            answer = try await connection.send(method, prefix + path, headers: headers, body: bytes)
        } catch {
            throw CommandFailure(
                "cannot reach the Meridian service at \(base): \(error); \(Self.hint(for: error)) (give --server URL, MERIDIAN_SERVER or --config)"
            )
        }
        let data = Data(answer.body)
        if let location = answer.location {
            // Not followed: the token would go wherever the redirect points.
            throw CommandFailure(
                "the service at \(base) redirects \(method) \(path) to \(location) (HTTP \(answer.status)); give the address it redirects to as --server or MERIDIAN_SERVER"
            )
        }
        guard (200..<300).contains(answer.status) else {
            if let error = try? MeridianJSON.makeDecoder().decode(ErrorReply.self, from: data) {
                throw CommandFailure(explaining[error.error.code] ?? error.error.message)
            }
            throw CommandFailure("the service answered \(method) \(path) with HTTP \(answer.status)")
        }
        return data
    }

    /// What to check when the service could not be asked.
    private static func hint(for error: HTTPClientError) -> String {
        switch error {
        case .tls: "if the service's certificate is its own, add its CA to this machine's trusted certificates"
        default: "is `meridian serve` running?"
        }
    }

    /// How long one request may take, connecting included.
    static let timeout = 15.0
    /// The longest answer read (the service's answers to these commands are a few kilobytes).
    static let maximumAnswerBytes = 16 << 20

    /// Decodes an answer of the service.
    public static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try MeridianJSON.makeDecoder().decode(type, from: data)
        } catch {
            throw CommandFailure(
                "the service's answer was not understood (\(error)); are the CLI and the service the same version?")
        }
    }

    private struct ErrorReply: Decodable {
        struct Detail: Decodable {
            var code: String
            var message: String
        }
        var error: Detail
    }
}
