import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MeridianCore

/// Options of the commands that talk to the running service.
public struct ServerOptions: ParsableArguments {
    @Option(name: .long, help: "Base URL of the running service.")
    public var server: String = "http://127.0.0.1:8080"

    @Flag(name: .long, help: "Print the JSON document instead of a summary.")
    public var json = false

    public init() {}
}

/// A small HTTP client for the running service's API (bearer token from `MERIDIAN_TOKEN`); every failure is a
/// `CommandFailure` that says what to do.
public struct ServiceClient {
    public var base: String

    public init(base: String) {
        self.base = base
    }

    /// Sends `method path` with an optional JSON body and returns the answer's body (a 2xx, else the service's error message).
    public func send(_ method: String, _ path: String, body: [String: String]? = nil) async throws -> Data {
        guard let url = URL(string: base.hasSuffix("/") ? String(base.dropLast()) + path : base + path),
              url.scheme == "http" || url.scheme == "https" else {
            throw CommandFailure("--server '\(base)' is not an http(s) URL such as http://127.0.0.1:8080", code: 2)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = 15
        if let token = ProcessInfo.processInfo.environment["MERIDIAN_TOKEN"], !token.isEmpty {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await Self.load(request)
        } catch {
            throw CommandFailure("cannot reach the Meridian service at \(base): \(error.localizedDescription); is `meridian serve` running? (set --server)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            if let error = try? MeridianJSON.makeDecoder().decode(ErrorReply.self, from: data) {
                throw CommandFailure(error.error.message)
            }
            throw CommandFailure("the service answered \(method) \(path) with HTTP \(status)")
        }
        return data
    }

    private static func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                guard let response else { return continuation.resume(throwing: URLError(.badServerResponse)) }
                continuation.resume(returning: (data ?? Data(), response))
            }.resume()
        }
    }

    /// Decodes an answer of the service.
    public static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try MeridianJSON.makeDecoder().decode(type, from: data)
        } catch {
            throw CommandFailure("the service's answer was not understood (\(error)); are the CLI and the service the same version?")
        }
    }

    private struct ErrorReply: Decodable {
        struct Detail: Decodable { var code: String; var message: String }
        var error: Detail
    }
}
