import MeridianCore
import NIOCore

/// Reads NMEA bytes from an open tty: writes the `init` sentences, feeds the
/// decoder, flushes an epoch after a quiet moment, and closes on silence.
final class SerialChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let session: SerialSession
    private let outcome: ConnectionRecord
    private let path: String
    private let initBytes: [UInt8]
    private let quietPeriod: TimeAmount
    private let silenceTimeout: TimeAmount
    private var quietFlush: Scheduled<Void>?
    private var isFirstRead = true

    init(
        session: SerialSession, outcome: ConnectionRecord, path: String, initBytes: [UInt8],
        quietPeriod: TimeAmount, silenceTimeout: TimeAmount
    ) {
        self.session = session
        self.outcome = outcome
        self.path = path
        self.initBytes = initBytes
        self.quietPeriod = quietPeriod
        self.silenceTimeout = silenceTimeout
    }

    func channelActive(context: ChannelHandlerContext) {
        if !initBytes.isEmpty {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: initBytes)), promise: nil)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if isFirstRead {
            isFirstRead = false
            outcome.noteProgress()
            session.context.health.update(.connected, message: "receiving from \(path)")
        }
        session.feed(buffer.readableBytesView)
        quietFlush?.cancel()
        let session = self.session
        quietFlush = context.eventLoop.assumeIsolated().scheduleTask(in: quietPeriod) { session.flush() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        session.context.health.count("silences")
        let seconds = Double(silenceTimeout.nanoseconds) / 1e9
        outcome.close(
            because: "no data from \(path) for \(NumberText.trimmed(seconds, decimals: 1)) s (silence_timeout); "
                + "check the receiver's power, cable and baud rate")
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        quietFlush?.cancel()
        session.flush()
        outcome.close(because: "\(path) was closed (device unplugged or gone)")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        outcome.close(because: "reading \(path) failed (\(error)); the device was probably unplugged")
        context.close(promise: nil)
    }
}
