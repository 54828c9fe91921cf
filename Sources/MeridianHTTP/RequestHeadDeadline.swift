import NIOCore

/// Closes a connection whose request head (request line and headers) has not fully arrived
/// `limit` after its first byte, with a 408 JSON error: a client that sends its headers a byte at a
/// time (slowloris) cannot hold a connection open. Sits in front of the HTTP decoder and sees raw
/// bytes; `ConnectionGuard`, behind the decoder, says when a head has arrived and when the
/// connection is waiting for the next one. Between requests only the idle timeout applies.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: TimeAmount
    /// True while no request is being read or answered: the next byte starts the clock.
    private var awaitingHead = true
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if awaitingHead && timer == nil {
            let limit = self.limit
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) {
                Self.refuse(context, after: limit)
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopClock()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopClock()
    }

    /// A request head has been decoded: no deadline until its request has been read and answered.
    func headArrived() {
        awaitingHead = false
        stopClock()
    }

    /// The last request has been read and answered: the next byte starts the clock again.
    func awaitNextHead() {
        awaitingHead = true
    }

    private func stopClock() {
        timer?.cancel()
        timer = nil
    }

    /// Writes a 408 straight to the socket (no request is being answered) and closes.
    private static func refuse(_ context: ChannelHandlerContext, after limit: TimeAmount) {
        let seconds = Double(limit.nanoseconds) / 1e9
        let response = APIError(
            .requestTimeout, code: "request_timeout",
            message:
                "the request line and headers did not arrive within \(seconds) s of the first byte (http.header_timeout)"
        )
        context.writeAndFlush(NIOAny(response.closingResponseBytes)).whenComplete { _ in context.close(promise: nil) }
    }
}
