import CZlib
import Foundation

/// gzip decompression (RFC 1952, several members back to back allowed) with a size cap, whole or
/// as a stream of chunks.
///
/// For activity files and for the NMEA and gpsd JSON logs the caller reads itself:
/// ```swift
/// let text = Gzip.isCompressed(data) ? try Gzip.decompress(data) : data
/// ```
public enum Gzip {
    /// The most bytes a file may decompress to (256 MiB); more is refused as a likely "zip bomb".
    /// The largest real activity files are tens of MB (a day at one point a second with sensors:
    /// about 25 MB of GPX); this leaves room for a multi-day GPX of a million points.
    public static let maximumDecompressedSize = 256 << 20

    /// Whether `bytes` start with the gzip magic number 1F 8B.
    public static func isCompressed(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x1F, 0x8B])
    }

    /// The decompressed bytes of a whole gzip file.
    public static func decompress(_ data: Data, limit: Int = maximumDecompressedSize) throws(GzipError) -> Data {
        var output = Data()
        try inflate(data, limit: limit) { chunk in
            output.append(chunk)
            return true
        }
        return output
    }

    /// Hands the decompressed bytes of `data` to `sink` a chunk (at most 64 KiB) at a time, holding no
    /// more than one chunk, until the stream ends or `sink` returns false. Throws once more than `limit`
    /// bytes would come out, or when the stream is damaged (the chunks before stay handed over).
    public static func decompress(
        _ data: Data, limit: Int = maximumDecompressedSize,
        into sink: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(GzipError) {
        try inflate(data, limit: limit, sink: sink)
    }

    /// Up to `count` decompressed bytes from the start of a gzip stream that may be cut short
    /// (for detecting the format inside); `nil` when the bytes are not a gzip stream.
    static func decompressedPrefix(_ bytes: some Collection<UInt8>, count: Int) -> [UInt8]? {
        var output: [UInt8] = []
        do {
            try inflate(Data(bytes), limit: .max, allowTruncation: true) { chunk in
                output.append(contentsOf: chunk.prefix(count - output.count))
                return output.count < count
            }
        } catch {
            return output.isEmpty ? nil : output
        }
        return output
    }

    /// Runs zlib over `data`, handing each decompressed chunk to `sink`. Stops quietly once `sink`
    /// returns false; throws once `limit` would be passed.
    private static func inflate(
        _ data: Data, limit: Int, allowTruncation: Bool = false,
        sink: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(GzipError) {
        guard isCompressed(data) else { throw .notGzip }
        // zlib remembers the stream's address, so it lives at one place until inflateEnd.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        // 15 + 16: a gzip wrapper with the largest window.
        guard inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt(offset: 0, reason: "zlib could not start")
        }
        defer { inflateEnd(stream) }
        let chunkSize = 64 * 1024
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        var produced = 0
        let failure: GzipError? = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> GzipError? in
            guard let base = input.bindMemory(to: UInt8.self).baseAddress else { return .truncated(offset: 0) }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
            stream.pointee.avail_in = UInt32(input.count)
            while true {
                stream.pointee.next_out = chunk.baseAddress
                stream.pointee.avail_out = UInt32(chunkSize)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                let count = chunkSize - Int(stream.pointee.avail_out)
                let consumed = input.count - Int(stream.pointee.avail_in)
                if count > 0 {
                    guard produced + count <= limit else { return .tooLarge(limit: limit) }
                    produced += count
                    guard sink(UnsafeBufferPointer(rebasing: chunk[0..<count])) else { return nil }
                }
                switch status {
                case Z_STREAM_END:
                    guard consumed < input.count else { return nil }
                    // Another gzip member may follow (as `cat a.gz b.gz` makes).
                    guard isCompressed(input[consumed...]) else {
                        return allowTruncation ? nil : .trailingBytes(offset: consumed)
                    }
                    guard inflateReset(stream) == Z_OK else {
                        return .corrupt(offset: consumed, reason: "zlib could not restart")
                    }
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // No progress possible: the input ended inside the stream.
                    return allowTruncation ? nil : .truncated(offset: consumed)
                default:
                    let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    return .corrupt(offset: consumed, reason: reason)
                }
            }
        }
        if let failure { throw failure }
    }
}

/// Why gzip bytes could not be decompressed.
public enum GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not start with the gzip magic number.
    case notGzip
    /// The stream ends before its end marker; `offset` is the compressed size.
    case truncated(offset: Int)
    /// The compressed data is damaged at about `offset`.
    case corrupt(offset: Int, reason: String)
    /// More than `limit` bytes would come out.
    case tooLarge(limit: Int)
    /// Bytes that are not gzip follow the last member.
    case trailingBytes(offset: Int)

    /// The compressed byte offset the problem is at, when there is one.
    public var byteOffset: Int? {
        switch self {
        case .notGzip, .tooLarge: return nil
        case .truncated(let offset), .corrupt(let offset, _), .trailingBytes(let offset): return offset
        }
    }

    public var description: String {
        switch self {
        case .notGzip:
            return "not gzip-compressed (no 1F 8B signature)"
        case .truncated(let offset):
            return
                "the gzip stream ends after \(offset) bytes without its end marker; the file is cut short, copy it again"
        case .corrupt(_, let reason):
            return "the gzip data is damaged (\(reason)); the file is corrupt, copy or export it again"
        case .tooLarge(let limit):
            return
                "decompresses to more than \(limit / (1 << 20)) MiB; refused as a possible zip bomb (decompress it yourself if it is genuine)"
        case .trailingBytes(let offset):
            return
                "bytes that are not gzip follow the compressed data at byte \(offset); the file is damaged, copy it again"
        }
    }
}
