import GPSDProtocol
import NIOCore

/// `LineSplitter` as a channel handler: gpsd's stream as lines of at most `maximumLength` bytes.
struct BoundedLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineFrame<ByteBuffer>

    private var splitter: LineSplitter

    init(maximumLength: Int) {
        splitter = LineSplitter(maximumLength: maximumLength)
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let frame = next(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(frame))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while let frame = next(from: &buffer) {
            context.fireChannelRead(wrapInboundOut(frame))
        }
        if let frame = splitter.tail(of: buffer.readableBytesView)?.map({ Self.slice(buffer, $0) }) {
            context.fireChannelRead(wrapInboundOut(frame))
        }
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }

    /// The next line in `buffer`, reading past it (and past the bytes of an overlong line meanwhile).
    private mutating func next(from buffer: inout ByteBuffer) -> LineFrame<ByteBuffer>? {
        let (frame, consumed) = splitter.next(in: buffer.readableBytesView)
        let line = frame?.map { Self.slice(buffer, $0) }
        buffer.moveReaderIndex(forwardBy: consumed)
        return line
    }

    /// The bytes at `offsets` from the reader index of `buffer`.
    private static func slice(_ buffer: ByteBuffer, _ offsets: Range<Int>) -> ByteBuffer {
        buffer.getSlice(at: buffer.readerIndex + offsets.lowerBound, length: offsets.count) ?? ByteBuffer()
    }
}
