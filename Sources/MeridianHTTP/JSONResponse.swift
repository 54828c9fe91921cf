import Foundation
import Hummingbird
import MeridianCore
import NIOCore
import NIOHTTP1

/// A JSON response encoded with Meridian's conventions (`snake_case`, ISO 8601 dates).
public struct JSONResponse<Value: Encodable & Sendable>: ResponseGenerator, Sendable {
    public var status: HTTPResponse.Status
    public var value: Value
    /// `Value`'s own writer when the response was made knowing it is `DirectJSONEncodable`.
    private let directJSON: (@Sendable (Value) -> ByteBuffer?)?

    public init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
        directJSON = nil
    }

    /// A response whose value writes its own JSON, chosen where the type is known (no cast per request).
    public init(_ value: Value, status: HTTPResponse.Status = .ok) where Value: DirectJSONEncodable {
        self.value = value
        self.status = status
        directJSON = { Self.written($0) }
    }

    /// The value's JSON: written directly when it is `DirectJSONEncodable` (the same text), else by `MeridianJSON`'s encoder.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body: ByteBuffer
        let direct: ByteBuffer?
        if let directJSON {
            direct = directJSON(value)
        } else {
            direct = (value as? any DirectJSONEncodable).flatMap { Self.written($0) }
        }
        if let direct {
            body = direct
        } else {
            do {
                body = ByteBuffer(bytes: try MeridianJSON.makeEncoder().encode(value))
            } catch {
                throw APIError(
                    .internalServerError, code: "encoding_failed",
                    message: "the response could not be encoded: \(error)")
            }
        }
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
    }

    /// `value`'s JSON written straight into the buffer that is sent (no array in between); nil when the value holds
    /// something the encoder refuses.
    private static func written(_ value: some DirectJSONEncodable) -> ByteBuffer? {
        guard let capacity = value.directJSONCapacity else { return nil }
        var buffer = ByteBufferAllocator().buffer(capacity: capacity)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { storage in
            var out = JSONScratchWriter(base: storage.bindMemory(to: UInt8.self).baseAddress!)
            value.writeDirectJSON(to: &out)
            return out.count
        }
        return buffer
    }
}

extension Request {
    /// Decodes a JSON body (at most `limit` bytes) with Meridian's conventions, as a 400 on failure.
    public func decodeJSON<T: Decodable>(_ type: T.Type, limit: Int = 16 << 20) async throws -> T {
        let data = try await collectBody(limit: limit, mediaTypes: ["application/json"])
        do {
            return try MeridianJSON.makeDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest(
                "the JSON body is not valid: \(DecodingErrorText.describe(error))", code: "invalid_body")
        }
    }

    /// The raw body bytes (at most `limit`). A `Content-Type` other than `mediaTypes` is a 415 (a
    /// request without one is read as the first of them); a larger body is a 413 (at once when its
    /// `Content-Length` says so) and a body that is not valid HTTP (a malformed chunk) a 400; all three
    /// close the connection instead of reading on.
    public func collectBody(limit: Int = 16 << 20, mediaTypes: [String]) async throws -> Data {
        if let contentType = headers[.contentType] {
            let mediaType =
                contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                ?? ""
            guard mediaTypes.contains(mediaType) else {
                throw APIError(
                    .unsupportedMediaType, code: "unsupported_media_type",
                    message:
                        "Content-Type '\(contentType)' is not accepted here; send \(mediaTypes.joined(separator: " or ")) (curl: -H 'Content-Type: \(mediaTypes[0])')"
                )
                .closingConnection()
            }
        }
        if let declared = headers[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError(
                .contentTooLarge, code: "body_too_large", message: "the request body is larger than \(limit) bytes"
            )
            .closingConnection()
        }
        do {
            return Data(try await body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError(
                .contentTooLarge, code: "body_too_large", message: "the request body is larger than \(limit) bytes"
            )
            .closingConnection()
        } catch let error as HTTPParserError {
            throw APIError.badRequest(
                "the request body is not valid HTTP/1.1 (\(error)); check its Content-Length or chunked encoding",
                code: "malformed_request"
            ).closingConnection()
        } catch {
            throw APIError.badRequest("the request body could not be read (\(error))", code: "malformed_request")
                .closingConnection()
        }
    }
}

/// Short, user-facing descriptions of `DecodingError`s.
public enum DecodingErrorText {
    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the document" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' in \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
