import Foundation
import Hummingbird
import MeridianHTTP

/// The fields of a submitted HTML form: `application/x-www-form-urlencoded`, or `multipart/form-data` with
/// files. Bodies over the limit, other content types and malformed multipart bodies are 4xx errors that say so.
public struct FormData: Sendable {
    /// One uploaded file.
    public struct File: Sendable {
        public var fieldName: String
        public var filename: String
        public var data: Data
    }

    public private(set) var fields: [String: String] = [:]
    public private(set) var files: [File] = []

    /// The text value of field `name`, if present.
    public subscript(_ name: String) -> String? { fields[name] }

    /// Reads the request body as a form (at most `limit` bytes).
    public static func read(_ request: Request, limit: Int) async throws -> FormData {
        let contentType = request.headers[.contentType] ?? ""
        let data = try await request.collectBody(
            limit: limit, mediaTypes: ["application/x-www-form-urlencoded", "multipart/form-data"])
        if contentType.lowercased().hasPrefix("multipart/form-data") {
            return try multipart(data, contentType: contentType)
        }
        return urlEncoded(String(decoding: data, as: UTF8.self))
    }

    /// `a=1&b=two+words` → fields (`+` is a space, `%XX` decoded; undecodable values are kept as sent).
    public static func urlEncoded(_ text: String) -> FormData {
        var form = FormData()
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            guard let name = parts.first.map(decode), !name.isEmpty else { continue }
            form.fields[name] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return form
    }

    /// Splits a `multipart/form-data` body at its boundary into fields and files.
    static func multipart(_ body: Data, contentType: String) throws -> FormData {
        guard let boundaryRange = contentType.range(of: "boundary=") else {
            throw APIError.badRequest("the multipart form has no boundary in its Content-Type", code: "invalid_body")
        }
        var boundary =
            String(contentType[boundaryRange.upperBound...]).split(separator: ";").first.map(String.init) ?? ""
        boundary = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        guard !boundary.isEmpty else {
            throw APIError.badRequest("the multipart form's boundary is empty", code: "invalid_body")
        }
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var form = FormData()
        var cursor = body.startIndex
        guard let first = body.range(of: delimiter, in: cursor..<body.endIndex) else {
            throw APIError.badRequest("the multipart form does not contain its boundary", code: "invalid_body")
        }
        cursor = first.upperBound
        while true {
            // After a delimiter: "--" ends the body, "\r\n" starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard body[cursor...].starts(with: Data("\r\n".utf8)) else {
                throw APIError.badRequest("the multipart form is malformed after a boundary", code: "invalid_body")
            }
            let partStart = cursor + 2
            guard let headersEnd = body.range(of: headerEnd, in: partStart..<body.endIndex),
                let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headersEnd.upperBound..<body.endIndex)
            else {
                throw APIError.badRequest("the multipart form ends in the middle of a part", code: "invalid_body")
            }
            let headers = String(decoding: body[partStart..<headersEnd.lowerBound], as: UTF8.self)
            let content = Data(body[headersEnd.upperBound..<next.lowerBound])
            let disposition =
                headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-disposition:") } ?? ""
            if let name = Self.parameter("name", in: disposition) {
                if let filename = Self.parameter("filename", in: disposition) {
                    form.files.append(File(fieldName: name, filename: filename, data: content))
                } else {
                    form.fields[name] = String(decoding: content, as: UTF8.self)
                }
            }
            cursor = next.upperBound
        }
        return form
    }

    /// `name="value"` from a Content-Disposition header.
    static func parameter(_ name: String, in header: Substring) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let parts = piece.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        return nil
    }
}
