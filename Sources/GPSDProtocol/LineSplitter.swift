/// A line cut from a byte stream by `LineSplitter`.
public enum LineFrame<Line> {
    /// One line without its `\n` (and without a trailing `\r`).
    case line(Line)
    /// A line longer than the limit was dropped; `length` bytes were discarded.
    case overlong(length: Int)

    /// The same frame with the line transformed (for example from its byte range to its bytes).
    public func map<Other>(_ transform: (Line) -> Other) -> LineFrame<Other> {
        switch self {
        case .line(let line): return .line(transform(line))
        case .overlong(let length): return .overlong(length: length)
        }
    }
}

extension LineFrame: Equatable where Line: Equatable {}
extension LineFrame: Sendable where Line: Sendable {}

/// Splits bytes at `\n` into lines of at most `maximumLength` bytes (gpsd's own limit is 10 KiB).
///
/// The caller keeps the bytes: it passes what it has, takes the line by its offsets, and drops
/// the bytes the splitter used up. A longer line is discarded as it arrives (never kept beyond
/// the limit) and reported as `.overlong` once its end is seen.
public struct LineSplitter: Sendable {
    public let maximumLength: Int
    private var discardedBytes: Int?

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The next complete line at the start of `bytes`, as offsets from their start, and how many bytes to drop
    /// (the line and its `\n`). The frame is nil when more bytes are needed; the bytes of an overlong line are
    /// used up and dropped meanwhile.
    public mutating func next(in bytes: some BidirectionalCollection<UInt8>) -> (
        frame: LineFrame<Range<Int>>?, consumed: Int
    ) {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            guard discardedBytes != nil || bytes.count > maximumLength else { return (nil, 0) }
            discardedBytes = (discardedBytes ?? 0) + bytes.count
            return (nil, bytes.count)
        }
        let length = bytes.distance(from: bytes.startIndex, to: newline)
        if let discarded = discardedBytes {
            discardedBytes = nil
            return (.overlong(length: discarded + length), length + 1)
        }
        guard length <= maximumLength else { return (.overlong(length: length), length + 1) }
        let carriageReturn = length > 0 && bytes[bytes.index(before: newline)] == UInt8(ascii: "\r")
        return (.line(0..<(carriageReturn ? length - 1 : length)), length + 1)
    }

    /// At the end of the stream: the unterminated rest `bytes` as a last line (or as overlong); all of it is used up.
    public mutating func tail(of bytes: some Collection<UInt8>) -> LineFrame<Range<Int>>? {
        defer { discardedBytes = nil }
        if let discarded = discardedBytes { return .overlong(length: discarded + bytes.count) }
        return bytes.isEmpty ? nil : .line(0..<bytes.count)
    }
}
