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
        feed(buffer, onFix: onFix, onSentence: nil)
    }

    /// Like `feed(_:onFix:)`, and hands every sentence with a valid checksum, as received (the bytes after `$` up to
    /// the end of its checksum), to `onSentence`, after any fix it completed. For callers that pass sentences on;
    /// `feed(_:onFix:)` does none of this work.
    public mutating func feed(
        _ buffer: UnsafeRawBufferPointer, onFix: (Fix) -> Void, onSentence: (UnsafeRawBufferPointer) -> Void
    ) {
        withoutActuallyEscaping(onSentence) { feed(buffer, onFix: onFix, onSentence: .some($0)) }
    }

    @inline(__always)
    private mutating func feed(
        _ buffer: UnsafeRawBufferPointer, onFix: (Fix) -> Void, onSentence: ((UnsafeRawBufferPointer) -> Void)?
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Fields.storageCapacity) { fieldStarts in
            var index = 0
            while framer.advance(buffer, index: &index, fieldStarts: fieldStarts.baseAddress!) {
                if let body = framer.directBody {
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[body]).assumingMemoryBound(to: UInt8.self)
                    let fields = Fields(framed: bytes, storage: fieldStarts, commas: framer.directCommas)
                    record(SentenceParser.decode(fields, into: &assembler), onFix: onFix)
                    if let onSentence {
                        // The sentence lies in `buffer`: from its body to before the line end that `index` passed.
                        var end = index
                        while end > body.upperBound, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
                        onSentence(UnsafeRawBufferPointer(rebasing: buffer[body.lowerBound..<end]))
                    }
                } else {
                    decodeLine(onFix: onFix)
                    if let onSentence { framer.line.withUnsafeBytes(onSentence) }
                }
            }
        }
    }

    /// Flushes the last epoch at end of input.
    public mutating func finish() -> [Fix] {
        var fixes: [Fix] = []
        if framer.finish() { decodeLine { fixes.append($0) } }
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
    private mutating func decodeLine(onFix: (Fix) -> Void) {
        let line = framer.line
        line.withUnsafeBufferPointer { line in
            record(
                SentenceParser.decode(UnsafeBufferPointer(rebasing: line[0..<framer.bodyCount]), into: &assembler),
                onFix: onFix)
        }
    }

    /// Counts a sentence the parser handed to the epoch assembler, and passes on the fix it completed.
    @inline(__always)
    private mutating func record(_ outcome: SentenceOutcome<Bool>, onFix: (Fix) -> Void) {
        switch outcome {
        case .accepted(_, let completedEpoch):
            accepted += 1
            if completedEpoch, let fix = assembler.takeCompletedFix() { onFix(fix) }
        case .unknownType:
            unknownType += 1
        case .invalid:
            invalidFields += 1
        }
    }
}
