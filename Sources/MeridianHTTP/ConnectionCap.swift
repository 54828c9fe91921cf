import NIOCore
import Synchronization

/// `http.max_connections`: how many connections may be open at once. The connections beyond it are answered
/// 503 `too_many_connections` as soon as they open and closed, so that idle or slow clients cannot pile up
/// file descriptors and memory without bound.
final class ConnectionCap: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts `channel` as open until it closes; false when it is over the limit (then refuse it).
    func admit(_ channel: any Channel) -> Bool {
        let count = open.add(1, ordering: .relaxed).newValue
        channel.closeFuture.whenComplete { _ in self.open.subtract(1, ordering: .relaxed) }
        return count <= limit
    }
}

/// Answers a connection over `http.max_connections` with a 503 and closes it: the answer is written at once,
/// the sending side closed, whatever the client sends is dropped, and the connection closes when the client
/// closes its side or after `linger` (so that the client reads the answer instead of a reset).
final class ConnectionRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let limit: Int
    private let linger: TimeAmount
    private var answered = false

    init(limit: Int, linger: TimeAmount) {
        self.limit = limit
        self.linger = linger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { context.close(promise: nil) }
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let error = APIError(
            .serviceUnavailable, code: "too_many_connections",
            message: """
                the server has \(limit) connections open, its limit (http.max_connections); close idle connections or try again later
                """)
        context.writeAndFlush(NIOAny(error.closingResponseBytes)).whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: linger) { context.close(promise: nil) }
    }
}
