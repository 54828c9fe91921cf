import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Why a delivery failed, as the dead-letter list and `meridian hooks list` show it.
enum HookDeliveryError: Error, CustomStringConvertible {
    case unreachable(String)
    case timedOut(Double)
    case status(Int)
    case closed

    var description: String {
        switch self {
        case .unreachable(let detail): "cannot connect: \(detail)"
        case .timedOut(let seconds): "no answer within \(seconds) s (the hook's timeout)"
        case .status(let code): "the receiver answered HTTP \(code)"
        case .closed: "the receiver closed the connection before answering"
        }
    }
}

/// Where a hook's requests go, from its URL.
struct HookTarget: Sendable {
    var host: String
    var port: Int
    var tls: Bool
    /// Path and query, as sent in the request line.
    var path: String
    /// The `Host` header.
    var authority: String

    init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let rawHost = components.host, !rawHost.isEmpty
        else { return nil }
        tls = scheme == "https"
        host = rawHost.hasPrefix("[") ? String(rawHost.dropFirst().dropLast()) : rawHost
        port = components.port ?? (tls ? 443 : 80)
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + query
        let shownHost = host.contains(":") ? "[\(host)]" : host
        authority = components.port == nil ? shownHost : "\(shownHost):\(port)"
    }

    /// True when `host` is an IP address (no server name to send or verify).
    var isAddress: Bool { (try? SocketAddress(ipAddress: host, port: 0)) != nil }
}

/// An HTTP/1.1 client for one hook's receiver: one keep-alive connection, opened again when it closes; every request
/// has a deadline (the hook's timeout, connecting included), after which the connection is closed. Used by one task.
final class HookClient {
    private let target: HookTarget
    private let timeout: Double
    private var channel: (any Channel)?
    private var tlsContext: NIOSSLContext?
    /// A PEM file of the only CA trusted for an `https://` target (`HookSpec.caFile`); nil: the system's CAs.
    private let caFile: String?

    init(target: HookTarget, timeout: Double, caFile: String? = nil) {
        self.target = target
        self.timeout = timeout
        self.caFile = caFile
    }

    /// TLS as a client: the system's CAs, or only the CA in `caFile`; the receiver's name (or address) must match its
    /// certificate either way.
    static func tlsContext(trusting caFile: String?) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }

    /// POSTs `body` with `headers`; returns when the receiver answered 2xx, throws `HookDeliveryError` otherwise.
    func post(_ body: [UInt8], headers: [(String, String)]) async throws {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
        let channel = try await connection(deadline: deadline)
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: target.path)
        head.headers.add(name: "Host", value: target.authority)
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: "\(body.count)")
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        let buffer = ByteBuffer(bytes: body)
        let answer = channel.eventLoop.makePromise(of: ResponseCollector.Answer.self)
        let timer = channel.eventLoop.scheduleTask(deadline: deadline) { channel.close(promise: nil) }
        defer { timer.cancel() }
        do {
            try await channel.eventLoop.submit { [head] in
                try channel.pipeline.syncOperations.handler(type: ResponseCollector.self).expect(answer)
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                channel.write(HTTPClientRequestPart.body(.byteBuffer(buffer)), promise: nil)
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            }.get()
            let result = try await answer.futureResult.get()
            if !result.keepAlive { close() }
            guard (200..<300).contains(result.status) else { throw HookDeliveryError.status(result.status) }
        } catch let error as HookDeliveryError {
            if case .status = error { throw error }
            close()
            throw NIODeadline.now() >= deadline ? HookDeliveryError.timedOut(timeout) : error
        } catch ChannelPipelineError.notFound {
            // The connection closed, and its handlers went with it, before the request was sent.
            close()
            throw HookDeliveryError.closed
        } catch {
            close()
            throw NIODeadline.now() >= deadline ? HookDeliveryError.timedOut(timeout) : .unreachable("\(error)")
        }
    }

    /// Closes the connection (the next request opens another).
    func close() {
        channel?.close(promise: nil)
        channel = nil
    }

    private func connection(deadline: NIODeadline) async throws(HookDeliveryError) -> any Channel {
        if let channel, channel.isActive { return channel }
        close()
        let target = self.target
        do {
            let tls = try target.tls ? (tlsContext ?? Self.tlsContext(trusting: caFile)) : nil
            tlsContext = tls
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.nanoseconds(max(1, (deadline - NIODeadline.now()).nanoseconds)))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: tls, serverHostname: target.isAddress ? nil : target.host))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(ResponseCollector())
                    }
                }
                .connect(host: target.host, port: target.port).get()
            self.channel = channel
            return channel
        } catch {
            throw NIODeadline.now() >= deadline ? .timedOut(timeout) : .unreachable("\(error)")
        }
    }
}

/// Completes the promise of the request in flight with the answer's status, once the whole answer has arrived. A
/// connection that failed before the request was sent (a TLS handshake refused as soon as it connected) fails the
/// next request at once with that error, instead of leaving it waiting for an answer that cannot come.
private final class ResponseCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    struct Answer: Sendable {
        var status: Int
        var keepAlive: Bool
    }

    private var promise: EventLoopPromise<Answer>?
    private var head: HTTPResponseHead?
    /// What ended the connection while no request waited.
    private var failure: (any Error)?

    func expect(_ promise: EventLoopPromise<Answer>) {
        if let failure { return promise.fail(failure) }
        self.promise = promise
        head = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where head.status.code >= 200: self.head = head
        case .head, .body: break
        case .end:
            guard let head else { return }
            promise?.succeed(Answer(status: Int(head.status.code), keepAlive: head.isKeepAlive))
            promise = nil
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HookDeliveryError.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    /// Fails the request waiting, or the next one (the first error is the one that says why).
    private func fail(_ error: any Error) {
        if let promise {
            promise.fail(error)
            self.promise = nil
        } else if failure == nil {
            failure = error
        }
    }
}
