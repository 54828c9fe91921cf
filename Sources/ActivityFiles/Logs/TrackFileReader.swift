import Foundation
import GPSDProtocol
import MeridianCore
import NMEA

#if canImport(Glibc)
    import Glibc
#endif

/// Reads fixes from a recorded track file (NMEA log, GPX, gpsd JSON lines) in batches,
/// with memory independent of the file size for NMEA and gpsd JSON.
///
/// Used by the `replay` provider, `meridian replay` and `ActivityFileReader` (for receiver logs). Bad
/// parts of a file are reported through `onError` (naming the file and line) and skipped; only a file
/// that cannot be opened or read throws. A file or a pipe is read through its descriptor; bytes already
/// in memory (a decompressed `.gz`) through `init(data:…)`.
///
/// ```swift
/// let reader = try TrackFileReader(url: url, providerID: "import")
/// while let batch = try reader.nextBatch(onError: { print($0) }) { … }
/// ```
public final class TrackFileReader {
    /// The file's concrete format (never `.auto`).
    public let format: TrackFormat
    public let url: URL

    private let source: Source
    private var buffer: [UInt8]
    /// Bytes at the start of `buffer` read to detect the format of a pipe, not yet decoded.
    private var peeked = 0
    private var atEnd = false
    private var decoder: Decoder
    private var gpxCounters: [String: Int] = [:]

    /// Where the bytes come from.
    private final class Source {
        let descriptor: Int32
        let memory: Data?
        var offset = 0

        init(descriptor: Int32) {
            self.descriptor = descriptor
            memory = nil
        }

        init(memory: Data) {
            descriptor = -1
            self.memory = memory
        }

        deinit {
            if descriptor >= 0 { Glibc.close(descriptor) }
        }

        /// Reads up to `count` bytes into `buffer`: the count, 0 at the end, or -1 with `errno` set.
        func read(into buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
            guard let memory else { return Glibc.read(descriptor, buffer.baseAddress, count) }
            let taken = min(count, memory.count - offset)
            guard taken > 0 else { return 0 }
            memory.copyBytes(
                to: buffer.bindMemory(to: UInt8.self),
                from: (memory.startIndex + offset)..<(memory.startIndex + offset + taken))
            offset += taken
            return taken
        }
    }

    private enum Decoder {
        case nmea(NMEAStreamDecoder)
        case gpsd(GPSDStreamDecoder, pendingLine: [UInt8], lineNumber: Int)
        case gpx(done: Bool)
    }

    /// Bytes read per batch.
    public static let chunkSize = 256 * 1024
    /// gpsd JSON lines longer than this are reported and skipped (gpsd's own limit is 10 KiB).
    public static let maximumJSONLine = 64 * 1024

    /// Opens `url`; `format: .auto` detects it from the first bytes.
    public convenience init(
        url: URL, format: TrackFormat = .auto, providerID: String,
        checksum: ChecksumPolicy = .required
    ) throws(TrackReadError) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw TrackReadError(
                file: url.path, line: nil,
                message: "cannot open the track file (\(reason)); check the path and its permissions")
        }
        self.init(
            source: Source(descriptor: descriptor), url: url, format: format, providerID: providerID, checksum: checksum
        )
    }

    /// Reads bytes already in memory, named `file` in messages; `format: .auto` detects it from the first bytes.
    public convenience init(
        data: Data, file: String, format: TrackFormat = .auto, providerID: String,
        checksum: ChecksumPolicy = .required
    ) {
        self.init(
            source: Source(memory: data), url: URL(fileURLWithPath: file), format: format, providerID: providerID,
            checksum: checksum)
    }

    private init(source: Source, url: URL, format: TrackFormat, providerID: String, checksum: ChecksumPolicy) {
        self.source = source
        self.url = url
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        // Detection reads the first 4 KiB (or all there is); they are kept and decoded first (a pipe cannot be read twice).
        var prefixCount = 0
        while format == .auto, prefixCount < 4096 {
            let count = buffer.withUnsafeMutableBytes { raw in
                source.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: raw[prefixCount...]), count: 4096 - prefixCount)
            }
            guard count > 0 else { break }
            prefixCount += count
        }
        peeked = prefixCount
        self.format = format.resolved(prefix: buffer[0..<prefixCount])
        switch self.format {
        case .gpx: decoder = .gpx(done: false)
        case .gpsd: decoder = .gpsd(GPSDStreamDecoder(providerID: providerID), pendingLine: [], lineNumber: 0)
        case .nmea, .auto: decoder = .nmea(NMEAStreamDecoder(providerID: providerID, checksum: checksum))
        }
        self.providerID = providerID
    }

    private let providerID: String

    /// The next fixes in file order; `nil` once the file is exhausted. May return an empty batch.
    public func nextBatch(onError: (TrackReadError) -> Void) throws(TrackReadError) -> [Fix]? {
        var fixes: [Fix] = []
        guard try nextBatch(onError: onError, onFix: { fixes.append($0) }) else { return nil }
        return fixes
    }

    /// Like `nextBatch(onError:)` but hands each fix to `onFix`; returns `false` once the file is exhausted. With
    /// `onSentence`, an NMEA log's sentences with a valid checksum go there too, as read (see
    /// `NMEAStreamDecoder.feed(_:onFix:onSentence:)`).
    public func nextBatch(
        onError: (TrackReadError) -> Void, onFix: (Fix) -> Void,
        onSentence: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) throws(TrackReadError) -> Bool {
        if case .gpx(let done) = decoder {
            guard !done else { return false }
            decoder = .gpx(done: true)
            try readGPX(onError: onError, onFix: onFix)
            return true
        }
        guard !atEnd else { return false }
        let count = fill()
        guard count >= 0 else {
            throw TrackReadError(
                file: url.path, line: nil, message: "read failed (\(String(cString: strerror(errno))))")
        }
        if count == 0 { atEnd = true }
        switch decoder {
        case .nmea(var nmea):
            decoder = .gpx(done: true)  // release the decoder's storage while mutating (no copy-on-write)
            if count > 0 {
                buffer.withUnsafeBytes { bytes in
                    let read = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                    if let onSentence {
                        nmea.feed(read, onFix: onFix, onSentence: onSentence)
                    } else {
                        nmea.feed(read, onFix: onFix)
                    }
                }
            } else {
                nmea.finish().forEach(onFix)
            }
            decoder = .nmea(nmea)
        case .gpsd(var gpsd, var pending, var lineNumber):
            decoder = .gpx(done: true)
            if count > 0 {
                buffer.withUnsafeBufferPointer { bytes in
                    var start = 0
                    for index in 0..<count where bytes[index] == 0x0A {
                        pending.append(contentsOf: bytes[start..<index])
                        lineNumber += 1
                        decodeJSONLine(pending, number: lineNumber, decoder: &gpsd, onError: onError, onFix: onFix)
                        pending.removeAll(keepingCapacity: true)
                        start = index + 1
                    }
                    if pending.count + count - start <= Self.maximumJSONLine {
                        pending.append(contentsOf: bytes[start..<count])
                    } else {
                        // marks it too long
                        pending = Array(repeating: UInt8(ascii: "x"), count: Self.maximumJSONLine + 1)
                    }
                }
            } else {
                if !pending.isEmpty {
                    lineNumber += 1
                    decodeJSONLine(pending, number: lineNumber, decoder: &gpsd, onError: onError, onFix: onFix)
                    pending = []
                }
                gpsd.finish().forEach(onFix)
            }
            decoder = .gpsd(gpsd, pendingLine: pending, lineNumber: lineNumber)
        case .gpx:
            break
        }
        return true
    }

    private func decodeJSONLine(
        _ line: [UInt8], number: Int, decoder: inout GPSDStreamDecoder,
        onError: (TrackReadError) -> Void, onFix: (Fix) -> Void
    ) {
        guard line.count <= Self.maximumJSONLine else {
            onError(
                TrackReadError(
                    file: url.path, line: number,
                    message: "line longer than \(Self.maximumJSONLine) bytes; skipped"))
            return
        }
        var trimmed = line[...]
        if trimmed.last == 0x0D { trimmed = trimmed.dropLast() }
        do {
            try decoder.feed(line: trimmed).forEach(onFix)
        } catch {
            onError(TrackReadError(file: url.path, line: number, message: "\(error); line skipped"))
        }
    }

    /// Puts the next bytes at the start of `buffer`: those kept from format detection first, then
    /// what the source gives. Returns their count, 0 at the end, or -1 with `errno` set.
    private func fill() -> Int {
        defer { peeked = 0 }
        return peeked > 0 ? peeked : buffer.withUnsafeMutableBytes { source.read(into: $0, count: Self.chunkSize) }
    }

    private func readGPX(onError: (TrackReadError) -> Void, onFix: (Fix) -> Void) throws(TrackReadError) {
        // From the source (not the path), so that a pipe's bytes read for detection are kept.
        var data = Data()
        while true {
            let count = fill()
            guard count >= 0 else {
                throw TrackReadError(
                    file: url.path, line: nil, message: "cannot read the GPX file (\(String(cString: strerror(errno))))"
                )
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        let result = GPXFixes.read(data, file: url.path, providerID: providerID, onError: onError)
        gpxCounters = result.counters
        result.fixes.forEach(onFix)
    }

    /// What the reader has seen: NMEA counters, gpsd decoder counters or GPX point counts.
    public var counters: [String: Int] {
        switch decoder {
        case .nmea(let nmea): return nmea.counters.dictionary
        case .gpsd(let gpsd, _, _): return gpsd.counters
        case .gpx: return gpxCounters
        }
    }

    /// NMEA counters, when the file is NMEA.
    public var nmeaCounters: NMEACounters? {
        if case .nmea(let nmea) = decoder { return nmea.counters }
        return nil
    }

    /// Reads the whole file: every fix, errors through `onError`.
    public static func read(
        url: URL, format: TrackFormat = .auto, providerID: String,
        checksum: ChecksumPolicy = .required,
        onError: (TrackReadError) -> Void
    ) throws(TrackReadError) -> [Fix] {
        let reader = try TrackFileReader(url: url, format: format, providerID: providerID, checksum: checksum)
        var fixes: [Fix] = []
        while try reader.nextBatch(onError: onError, onFix: { fixes.append($0) }) {}
        return fixes
    }
}
