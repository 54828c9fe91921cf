import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#endif

/// Why a request got no answer.
public enum HTTPClientError: Error, CustomStringConvertible {
    case unreachable(String)
    case timedOut(Double)
    case tls(String)
    case closed
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .unreachable(let detail): "cannot connect: \(detail)"
        case .timedOut(let seconds): "no answer within \(seconds) s"
        case .tls(let detail): "the TLS handshake failed: \(detail)"
        case .closed: "the server closed the connection before answering"
        case .tooLarge(let limit): "the answer is larger than \(limit) bytes"
        }
    }
}

/// A server's answer to one request.
public struct HTTPClientAnswer: Sendable {
    public var status: Int
    public var keepAlive: Bool
    /// Where a redirect (3xx) points: its `Location` header.
    public var location: String?
    /// The body, when the connection keeps bodies (`maximumBodyBytes` > 0).
    public var body: [UInt8]
}

/// An HTTP/1.1 client for one server: one keep-alive connection, opened again when it closes; every request has a
/// deadline (the timeout, connecting included), after which the connection is closed. Used by one task at a time.
public final class HTTPClientConnection {
    private let endpoint: HTTPEndpoint
    private let timeout: Double
    private let maximumBodyBytes: Int
    /// A PEM file of the only CA trusted for an `https://` endpoint; nil: the system's CAs.
    private let caFile: String?
    private var channel: (any Channel)?
    private var tlsContext: NIOSSLContext?

    /// A client of `endpoint` whose requests each get `timeout` seconds; answers' bodies are kept up to
    /// `maximumBodyBytes` (0: bodies are read and dropped), a longer one fails the request.
    public init(endpoint: HTTPEndpoint, timeout: Double, caFile: String? = nil, maximumBodyBytes: Int = 0) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.caFile = caFile
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// TLS as a client: the system's CAs, or only the CA in `caFile`; the server's name (or address) must match its
    /// certificate either way.
    static func tlsContext(trusting caFile: String?) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.trustRoots = .file(caFile) }
        return try NIOSSLContext(configuration: configuration)
    }

    /// Sends `method target` (a method such as "GET"; a path and query) with `headers` (`Host` and, with a body,
    /// `Content-Length` are added) and returns the answer, whatever its status.
    public func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws(HTTPClientError) -> HTTPClientAnswer {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout * 1e9))
        let channel = try await connection(deadline: deadline)
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: target)
        head.headers.add(name: "Host", value: endpoint.authority)
        if let body { head.headers.add(name: "Content-Length", value: "\(body.count)") }
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        let buffer = body.map { ByteBuffer(bytes: $0) }
        let answer = channel.eventLoop.makePromise(of: HTTPClientAnswer.self)
        let timer = channel.eventLoop.scheduleTask(deadline: deadline) { channel.close(promise: nil) }
        defer { timer.cancel() }
        do {
            try await channel.eventLoop.submit { [head] in
                try channel.pipeline.syncOperations.handler(type: AnswerCollector.self).expect(answer)
                channel.write(HTTPClientRequestPart.head(head), promise: nil)
                if let buffer { channel.write(HTTPClientRequestPart.body(.byteBuffer(buffer)), promise: nil) }
                channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            }.get()
            let result = try await answer.futureResult.get()
            if !result.keepAlive { close() }
            return result
        } catch ChannelPipelineError.notFound {
            // The connection closed, and its handlers went with it, before the request was sent.
            close()
            throw .closed
        } catch {
            close()
            if NIODeadline.now() >= deadline { throw .timedOut(timeout) }
            if let error = error as? HTTPClientError { throw error }
            if error is NIOSSLError { throw .tls("\(error)") }
            throw .unreachable("\(error)")
        }
    }

    /// Closes the connection (the next request opens another).
    public func close() {
        channel?.close(promise: nil)
        channel = nil
    }

    private func connection(deadline: NIODeadline) async throws(HTTPClientError) -> any Channel {
        if let channel, channel.isActive { return channel }
        close()
        let endpoint = self.endpoint
        let maximumBodyBytes = self.maximumBodyBytes
        do {
            let tls = try endpoint.tls ? (tlsContext ?? Self.tlsContext(trusting: caFile)) : nil
            tlsContext = tls
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.nanoseconds(max(1, (deadline - NIODeadline.now()).nanoseconds)))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(
                                    context: tls, serverHostname: endpoint.isAddress ? nil : endpoint.host))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(
                            AnswerCollector(maximumBodyBytes: maximumBodyBytes))
                    }
                }
                .connect(host: endpoint.host, port: endpoint.port).get()
            self.channel = channel
            return channel
        } catch {
            throw NIODeadline.now() >= deadline ? .timedOut(timeout) : .unreachable(Self.reason(error))
        }
    }

    /// Why connecting failed, in the system's words ("Connection refused"), for each address tried.
    private static func reason(_ error: any Error) -> String {
        guard let failure = error as? NIOConnectionError else { return "\(error)" }
        if failure.dnsAError != nil || failure.dnsAAAAError != nil {
            return "the name \(failure.host) is not known to this machine's resolver"
        }
        let attempts = failure.connectionErrors.map { attempt in
            let cause =
                (attempt.error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(attempt.error)"
            return "\(attempt.target.ipAddress ?? failure.host) port \(failure.port): \(cause)"
        }
        return attempts.isEmpty ? "\(error)" : attempts.joined(separator: "; ")
    }
}

/// Completes the promise of the request in flight with the answer, once the whole answer has arrived. A connection
/// that failed before the request was sent (a TLS handshake refused as soon as it connected) fails the next request
/// at once with that error, instead of leaving it waiting for an answer that cannot come.
private final class AnswerCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let maximumBodyBytes: Int
    private var promise: EventLoopPromise<HTTPClientAnswer>?
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    /// What ended the connection while no request waited.
    private var failure: (any Error)?

    init(maximumBodyBytes: Int) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    func expect(_ promise: EventLoopPromise<HTTPClientAnswer>) {
        if let failure { return promise.fail(failure) }
        self.promise = promise
        head = nil
        body = []
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where head.status.code >= 200: self.head = head
        case .head: break
        case .body(let part):
            guard maximumBodyBytes > 0, head != nil else { return }
            guard body.count + part.readableBytes <= maximumBodyBytes else {
                fail(HTTPClientError.tooLarge(maximumBodyBytes))
                return context.close(promise: nil)
            }
            body.append(contentsOf: part.readableBytesView)
        case .end:
            guard let head else { return }
            let location = (300..<400).contains(head.status.code) ? head.headers.first(name: "Location") : nil
            promise?.succeed(
                HTTPClientAnswer(
                    status: Int(head.status.code), keepAlive: head.isKeepAlive, location: location, body: body))
            promise = nil
            body = []
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HTTPClientError.closed)
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
