import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 channel with Meridian's connection limits: the idle timeout
/// (`http.idle_timeout`), a deadline for each request head (`http.header_timeout`, see
/// `RequestHeadDeadline`) and `ConnectionGuard`.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let headerTimeout: TimeAmount

    init(responder: @escaping HTTPChannelHandler.Responder, idleTimeout: TimeAmount, headerTimeout: TimeAmount) {
        http1 = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout))
        self.headerTimeout = headerTimeout
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limit = headerTimeout
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let headDeadline = RequestHeadDeadline(limit: limit)
            try operations.addHandler(headDeadline, position: .first)
            let connectionState = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(ConnectionGuard(headDeadline: headDeadline), position: .before(connectionState))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with Meridian's connection limits, in seconds.
    static func guardedHTTP1(idleTimeout: Double, headerTimeout: Double) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, idleTimeout: .nanoseconds(Int64(idleTimeout * 1e9)),
                                headerTimeout: .nanoseconds(Int64(headerTimeout * 1e9)))
        }
    }
}
