import Foundation
import Hummingbird
import MeridianCore

/// An API error, rendered as `{"error": {"code": "...", "message": "..."}}`.
///
/// Use 4xx statuses for bad input; `message` says what was wrong and what to send instead.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    /// Stable machine-readable code, e.g. `no_fix`, `invalid_parameter`, `not_found`.
    public var code: String
    public var message: String
    /// Extra response headers (such as `Allow` on a 405).
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// 400 `invalid_parameter` for query or body problems.
    public static func badRequest(_ message: String, code: String = "invalid_parameter") -> APIError {
        APIError(.badRequest, code: code, message: message)
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String, code: String = "not_found") -> APIError {
        APIError(.notFound, code: code, message: message)
    }

    /// 409 `conflict` for requests that make no sense in the current state.
    public static func conflict(_ message: String, code: String = "conflict") -> APIError {
        APIError(.conflict, code: code, message: message)
    }

    /// Checks a client-chosen id of a resource being created against `ResourceID`'s rule; an id that
    /// breaks it is a 400 `invalid_id` whose message names the id and the rule.
    public static func checkID(_ id: String) throws(APIError) {
        do {
            try ResourceID.check(id)
        } catch {
            throw APIError(.badRequest, code: "invalid_id", message: error.description)
        }
    }

    /// The same error, answered with `Connection: close` so that the server closes the connection
    /// afterwards instead of reading the rest of a request it has refused.
    public func closingConnection() -> APIError {
        var error = self
        error.headers[.connection] = "close"
        return error
    }

    /// The JSON document, as bytes.
    var jsonBody: ByteBuffer {
        let body = APIErrorBody(error: .init(code: code, message: message))
        return ByteBuffer(bytes: (try? MeridianJSON.makeEncoder().encode(body)) ?? Data())
    }

    /// The whole HTTP/1.1 answer with `Connection: close`, as bytes, for handlers that write to the socket
    /// before any request has been decoded.
    var closingResponseBytes: ByteBuffer {
        let body = jsonBody
        var bytes = ByteBuffer()
        bytes.writeString(
            "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\ncontent-type: application/json; charset=utf-8\r\n")
        bytes.writeString("content-length: \(body.readableBytes)\r\nconnection: close\r\n\r\n")
        bytes.writeImmutableBuffer(body)
        return bytes
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: jsonBody))
    }
}

/// The JSON document of an `APIError`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        public var code: String
        public var message: String
    }

    public var error: Detail
}
