import Foundation
import MeridianCore

/// Turns a byte stream of NMEA 0183 into fixes: framing, checksums, sentence
/// decoding and epoch assembly, with counters for everything it rejects.
///
/// Pure: it does no I/O. Feed it bytes in chunks of any size as they arrive.
public struct NMEAStreamDecoder: Sendable {
    private var framer: SentenceFramer
    private var assembler: EpochAssembler
    private var unknownType = 0
    private var invalidFields = 0
    private var accepted = 0

    public init(providerID: String, checksum: ChecksumPolicy = .required) {
        framer = SentenceFramer(policy: checksum)
        assembler = EpochAssembler(providerID: providerID)
    }

    /// The UTC day for time-of-day-only sentences before the receiver sends a date (see `EpochAssembler.assumedDate`).
    public var assumedDate: Date? {
        get { assembler.assumedDate }
        set { assembler.assumedDate = newValue }
    }

    /// Bytes from a stream in arbitrary chunks; returns fixes completed by them.
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes) -> [Fix] where Bytes.Element == UInt8 {
        var fixes: [Fix] = []
        feed(bytes) { fixes.append($0) }
        return fixes
    }

    /// Bytes from a stream; calls `onFix` for each completed fix (no intermediate array).
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes, onFix: (Fix) -> Void) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            feed(UnsafeRawBufferPointer(buffer), onFix: onFix)
        }
        if done == nil {
            Array(bytes).withUnsafeBytes { feed($0, onFix: onFix) }
        }
    }

    /// The fastest entry point: raw bytes, fixes through `onFix`.
    public mutating func feed(_ buffer: UnsafeRawBufferPointer, onFix: (Fix) -> Void) {
        var index = 0
        while framer.advance(buffer, index: &index) {
            let fix: Fix?
            if let body = framer.directBody {
                fix = decode(UnsafeRawBufferPointer(rebasing: buffer[body]).assumingMemoryBound(to: UInt8.self))
            } else {
                fix = decodeLine()
            }
            if let fix { onFix(fix) }
        }
    }

    /// Flushes the last epoch at end of input.
    public mutating func finish() -> [Fix] {
        var fixes: [Fix] = []
        if framer.finish(), let fix = decodeLine() { fixes.append(fix) }
        if let fix = assembler.finish() { fixes.append(fix) }
        return fixes
    }

    public var counters: NMEACounters {
        var counters = framer.counters
        counters.sentences = accepted
        counters.unknownType = unknownType
        counters.invalidFields = invalidFields
        counters.undatedEpochs = assembler.undatedEpochs
        counters.fixesEmitted = assembler.fixesEmitted
        return counters
    }

    /// Decodes the sentence the framer assembled in its line buffer.
    private mutating func decodeLine() -> Fix? {
        let parsed = framer.line.withUnsafeBufferPointer { line in
            SentenceParser.parse(UnsafeBufferPointer(rebasing: line[0..<framer.bodyCount]))
        }
        return accept(parsed)
    }

    /// Decodes a sentence body read in place from the input.
    private mutating func decode(_ body: UnsafeBufferPointer<UInt8>) -> Fix? {
        accept(SentenceParser.parse(body))
    }

    private mutating func accept(_ parsed: ParsedSentence) -> Fix? {
        switch parsed {
        case .sentence(_, let sentence):
            accepted += 1
            return assembler.add(sentence)
        case .unknownType:
            unknownType += 1
        case .invalid:
            invalidFields += 1
        }
        return nil
    }
}
