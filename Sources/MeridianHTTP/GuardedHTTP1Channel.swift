import HummingbirdCore
import Logging
import MeridianCore
import NIOCore

/// Hummingbird's HTTP/1.1 channel with Meridian's connection limits: the idle timeout
/// (`http.idle_timeout`), a deadline for each request head (`http.header_timeout`, see
/// `RequestHeadDeadline`), the pace of request bodies and the rest of `ConnectionGuard`, and the
/// cap on open connections (`http.max_connections`, see `ConnectionCap`).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let headerTimeout: TimeAmount
    let bodyPace: ConnectionGuard.BodyPace
    let cap: ConnectionCap

    init(responder: @escaping HTTPChannelHandler.Responder, settings: HTTPSettings, cap: ConnectionCap) {
        http1 = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: Self.time(settings.idleTimeout)))
        headerTimeout = Self.time(settings.headerTimeout)
        bodyPace = .init(window: Self.time(settings.bodyTimeout),
                         minimumBytes: Int((settings.bodyTimeout * Double(settings.bodyMinRate)).rounded(.up)))
        self.cap = cap
    }

    private static func time(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(seconds * 1e9))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let headerTimeout = headerTimeout, bodyPace = bodyPace
        let admitted = cap.admit(channel), limit = cap.limit
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            guard admitted else {
                try operations.addHandler(ConnectionRefusal(limit: limit, linger: .seconds(1)), position: .first)
                return value
            }
            let headDeadline = RequestHeadDeadline(limit: headerTimeout)
            try operations.addHandler(headDeadline, position: .first)
            let connectionState = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(ConnectionGuard(headDeadline: headDeadline, bodyPace: bodyPace), position: .before(connectionState))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with Meridian's connection limits from `settings`.
    static func guardedHTTP1(_ settings: HTTPSettings) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(responder: responder, settings: settings, cap: ConnectionCap(limit: settings.maxConnections))
        }
    }
}
