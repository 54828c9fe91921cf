import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 client over a real TCP socket to 127.0.0.1, for tests.
/// Blocking socket calls run on a dedicated thread, never on the cooperative pool.
public struct HTTPTestClient: Sendable {
    public let port: Int
    public var headers: [String: String]

    public init(port: Int, headers: [String: String] = [:]) {
        self.port = port
        self.headers = headers
    }

    /// A complete response.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body decoded as a JSON object.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw TestSupportError("body is not a JSON object: \(text)")
            }
            return object
        }
    }

    /// Sends one request (`Connection: close`) and reads the whole response.
    public func request(
        _ method: String = "GET", _ path: String, body: Data? = nil,
        contentType: String = "application/json", timeout: Double = 10
    ) async throws -> Response {
        let raw = try await exchange(method, path, body: body, contentType: contentType, timeout: timeout) { _ in false
        }
        return try Self.parse(raw)
    }

    /// Opens a streaming request (e.g. Server-Sent Events) and reads until `done` returns
    /// true for the text received so far, or until `timeout`; returns that text.
    public func stream(_ path: String, timeout: Double = 10, until done: @escaping @Sendable (String) -> Bool)
        async throws -> String
    {
        let raw = try await exchange("GET", path, body: nil, contentType: "", timeout: timeout) { data in
            done(String(decoding: data, as: UTF8.self))
        }
        return String(decoding: raw, as: UTF8.self)
    }

    private func exchange(
        _ method: String, _ path: String, body: Data?, contentType: String, timeout: Double,
        stopWhen: @escaping @Sendable (Data) -> Bool
    ) async throws -> Data {
        // A `Host` among `headers` replaces the default one.
        let host = headers.first { $0.key.lowercased() == "host" }?.value ?? "127.0.0.1:\(port)"
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers where name.lowercased() != "host" { head += "\(name): \(value)\r\n" }
        if let body {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        let payload = Data(head.utf8) + (body ?? Data())
        let port = self.port
        return try await TestSocket.onThread {
            let descriptor = try TestSocket.connect(port: port)
            defer { close(descriptor) }
            try TestSocket.sendAll(payload, to: descriptor)
            let (received, closed) = try TestSocket.receive(from: descriptor, timeout: timeout, stopWhen: stopWhen)
            guard closed || stopWhen(received) else {
                throw TestSupportError(
                    "no complete response from 127.0.0.1:\(port) within \(timeout) s; got: \(String(decoding: received.prefix(500), as: UTF8.self))"
                )
            }
            return received
        }
    }

    /// Splits status line, headers and body; undoes chunked transfer encoding.
    public static func parse(_ raw: Data) throws -> Response {
        guard let separator = raw.range(of: Data("\r\n\r\n".utf8)) else {
            throw TestSupportError("malformed HTTP response: \(String(decoding: raw.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: raw[..<separator.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw TestSupportError("malformed status line: \(head.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Data(raw[separator.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var output = Data()
        var index = data.startIndex
        while index < data.endIndex, let lineEnd = data[index...].range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let end = data.index(start, offsetBy: size, limitedBy: data.endIndex) ?? data.endIndex
            output.append(data[start..<end])
            index = data.index(end, offsetBy: 2, limitedBy: data.endIndex) ?? data.endIndex
        }
        return output
    }
}
