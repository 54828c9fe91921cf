import NIOCore

/// A line cut from the stream by `LineSplitter`.
enum LineFrame {
    /// One line without its `\n` (and without a trailing `\r`).
    case line(ByteBuffer)
    /// A line longer than the limit was dropped; `length` bytes were discarded.
    case overlong(length: Int)
}

/// Splits bytes at `\n` into lines of at most `maximumLength` bytes.
///
/// A longer line is discarded as it arrives (never buffered beyond the limit)
/// and reported as `.overlong` once its end is seen.
struct LineSplitter {
    let maximumLength: Int
    private var discardedBytes: Int?

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The next complete line in `buffer`, consuming it; `nil` when more bytes are needed
    /// (bytes of an overlong line are consumed and dropped meanwhile).
    mutating func next(from buffer: inout ByteBuffer) -> LineFrame? {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if discardedBytes != nil || buffer.readableBytes > maximumLength {
                discardedBytes = (discardedBytes ?? 0) + buffer.readableBytes
                buffer.moveReaderIndex(to: buffer.writerIndex)
            }
            return nil
        }
        let length = newline - buffer.readerIndex
        if let discarded = discardedBytes {
            buffer.moveReaderIndex(forwardBy: length + 1)
            discardedBytes = nil
            return .overlong(length: discarded + length)
        }
        guard length <= maximumLength, var line = buffer.readSlice(length: length) else {
            buffer.moveReaderIndex(forwardBy: length + 1)
            return .overlong(length: length)
        }
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
        return .line(line)
    }

    /// At end of stream: the unterminated tail as a last line (or as overlong), consuming everything.
    mutating func tail(of buffer: inout ByteBuffer) -> LineFrame? {
        defer {
            discardedBytes = nil
            buffer.moveReaderIndex(to: buffer.writerIndex)
        }
        if let discarded = discardedBytes { return .overlong(length: discarded + buffer.readableBytes) }
        guard buffer.readableBytes > 0, let tail = buffer.readSlice(length: buffer.readableBytes) else { return nil }
        return .line(tail)
    }
}

/// `LineSplitter` as a channel handler.
struct BoundedLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineFrame

    private var splitter: LineSplitter

    init(maximumLength: Int) {
        splitter = LineSplitter(maximumLength: maximumLength)
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = splitter.next(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(frame))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while let frame = splitter.next(from: &buffer) {
            context.fireChannelRead(wrapInboundOut(frame))
        }
        if let frame = splitter.tail(of: &buffer) {
            context.fireChannelRead(wrapInboundOut(frame))
        }
        return .needMoreData
    }
}
