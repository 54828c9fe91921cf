import HummingbirdCore
import Logging
import MeridianCore
import NIOCore
import NIOSSL

/// Hummingbird's HTTP/1.1 channel with Meridian's connection limits: the idle timeout
/// (`http.idle_timeout`), a deadline for each request head (`http.header_timeout`, see
/// `RequestHeadDeadline`), the pace of request bodies and the rest of `ConnectionGuard`, and the
/// cap on open connections (`http.max_connections`, see `ConnectionCap`); TLS in front of all of it when
/// `http.tls` is set (see `ServerCertificate`).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let headerTimeout: TimeAmount
    let bodyPace: ConnectionGuard.BodyPace
    let cap: ConnectionCap
    let certificate: ServerCertificate?

    init(
        responder: @escaping HTTPChannelHandler.Responder, settings: HTTPSettings, cap: ConnectionCap,
        certificate: ServerCertificate?
    ) {
        http1 = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: Self.time(settings.idleTimeout)))
        headerTimeout = Self.time(settings.headerTimeout)
        bodyPace = .init(
            window: Self.time(settings.bodyTimeout),
            minimumBytes: Int((settings.bodyTimeout * Double(settings.bodyMinRate)).rounded(.up)))
        self.cap = cap
        self.certificate = certificate
    }

    private static func time(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(seconds * 1e9))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let headerTimeout = headerTimeout, bodyPace = bodyPace
        let admitted = cap.admit(channel), limit = cap.limit, context = certificate?.context
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            // TLS sits next to the socket, added first so that everything behind it (a refusal's 503 too) is encrypted.
            var front = ChannelPipeline.SynchronousOperations.Position.first
            if let context {
                let tls = NIOSSLServerHandler(context: context)
                try operations.addHandler(tls, position: .first)
                front = .after(tls)
            }
            guard admitted else {
                try operations.addHandler(ConnectionRefusal(limit: limit, linger: .seconds(1)), position: front)
                return value
            }
            let headDeadline = RequestHeadDeadline(limit: headerTimeout)
            try operations.addHandler(headDeadline, position: front)
            let connectionState = try operations.handler(type: HTTPConnectionStateHandler.self)
            try operations.addHandler(
                ConnectionGuard(headDeadline: headDeadline, bodyPace: bodyPace), position: .before(connectionState))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with Meridian's connection limits from `settings`, over TLS with `certificate` when there is one.
    static func guardedHTTP1(_ settings: HTTPSettings, certificate: ServerCertificate?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, settings: settings, cap: ConnectionCap(limit: settings.maxConnections),
                certificate: certificate)
        }
    }
}
