import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Watches one HTTP/1.1 connection behind the decoder:
/// - closes it once a response that says `Connection: close` (such as a 413) has been written,
///   instead of reading on through a body the server has refused;
/// - answers a request that is not valid HTTP/1.1 (a bad request line or header) with a JSON 400
///   and closes, where Hummingbird would send an empty 400; a malformed body of a request being
///   answered is passed on, so that the handler reading it answers 400;
/// - tells `RequestHeadDeadline` when a head has arrived and when the next one is awaited;
/// - holds a request body to a pace (`http.body_timeout`, `http.body_min_rate`): while the server waits
///   for body bytes, each `body_timeout` must bring at least `body_min_rate` bytes a second, else a 408
///   and the connection closes (a client sending a byte every few seconds cannot hold it open);
/// - tells whoever asked (`whenClientGone`) that the client has gone: it closed its connection or its
///   sending side while a request was being answered.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How fast a request body must come: at least `minimumBytes` in each `window`.
    struct BodyPace {
        var window: TimeAmount
        var minimumBytes: Int
    }

    private let headDeadline: RequestHeadDeadline
    private let bodyPace: BodyPace
    /// A request's head has arrived and its end has not.
    private var readingRequest = false
    /// A request's head has arrived and its response's end has not been written.
    private var answering = false
    /// The response's head has been written.
    private var responding = false
    private var closeAfterResponse = false
    /// Body bytes that arrived in the current window, and the window's end.
    private var bodyBytes = 0
    private var bodyTimer: Scheduled<Void>?
    /// The server has asked for more bytes and none have come since.
    private var waitingForBytes = false
    private var clientGone = false
    private var goneHandlers: [@Sendable () -> Void] = []

    init(headDeadline: RequestHeadDeadline, bodyPace: BodyPace) {
        self.headDeadline = headDeadline
        self.bodyPace = bodyPace
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        waitingForBytes = false
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            answering = true
            headDeadline.headArrived()
            bodyBytes = 0
            startBodyWindow(context)
        case .body(let bytes):
            bodyBytes += bytes.readableBytes
        case .end:
            readingRequest = false
            stopBodyClock()
            if !answering { headDeadline.awaitNextHead() }
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        waitingForBytes = true
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { clientLeft() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopBodyClock()
        clientLeft()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopBodyClock()
    }

    /// Calls `handler` (on any thread) once the client of the request being answered on `channel` has
    /// gone, at once when it already has; never when the answer is written first.
    static func whenClientGone(on channel: any Channel, _ handler: @escaping @Sendable () -> Void) {
        channel.eventLoop.execute {
            guard let guardian = try? channel.pipeline.syncOperations.handler(type: ConnectionGuard.self) else {
                // Closed, and its handlers gone; or a channel without the guard (a router under test).
                if !channel.isActive { handler() }
                return
            }
            if guardian.clientGone { handler() } else { guardian.goneHandlers.append(handler) }
        }
    }

    private func clientLeft() {
        guard !clientGone else { return }
        clientGone = true
        let handlers = goneHandlers
        goneHandlers = []
        for handler in handlers { handler() }
    }

    private func startBodyWindow(_ context: ChannelHandlerContext) {
        bodyTimer?.cancel()
        bodyTimer = context.eventLoop.assumeIsolated().scheduleTask(in: bodyPace.window) {
            self.bodyWindowEnded(context)
        }
    }

    private func stopBodyClock() {
        bodyTimer?.cancel()
        bodyTimer = nil
    }

    /// The end of a window while a body is read: too few bytes while the server was waiting for them is a 408.
    private func bodyWindowEnded(_ context: ChannelHandlerContext) {
        bodyTimer = nil
        guard readingRequest else { return }
        guard waitingForBytes && bodyBytes < bodyPace.minimumBytes else {
            bodyBytes = 0
            startBodyWindow(context)
            return
        }
        guard !responding else {
            context.close(promise: nil)
            return
        }
        closeAfterResponse = true
        write(
            context,
            APIError(
                .requestTimeout, code: "request_timeout",
                message: """
                    the request body came too slowly: \(bodyBytes) bytes in the last \(Double(bodyPace.window.nanoseconds) / 1e9) s, \
                    where at least \(bodyPace.minimumBytes) are needed (http.body_timeout, http.body_min_rate); send the body at once
                    """))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            responding = true
            if response.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            answering = false
            responding = false
            goneHandlers = []
            if closeAfterResponse {
                context.writeAndFlush(data, promise: promise)
                context.close(promise: nil)
                return
            }
            if !readingRequest { headDeadline.awaitNextHead() }
            context.write(data, promise: promise)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if readingRequest {
            // The handler reading this body answers it (400) and closes.
            context.fireErrorCaught(error)
        } else if answering {
            // Garbage after a complete request: finish that answer, then close.
            closeAfterResponse = true
        } else {
            refuse(context, parseError)
        }
    }

    /// Answers a request that could not be parsed with a JSON 400 and closes the connection.
    private func refuse(_ context: ChannelHandlerContext, _ error: HTTPParserError) {
        write(
            context,
            APIError.badRequest(
                "the request is not valid HTTP/1.1 (\(error)); check the request line, header names and values",
                code: "malformed_request"))
    }

    /// Writes `error` as a JSON answer that closes the connection, and closes it.
    private func write(_ context: ChannelHandlerContext, _ error: APIError) {
        let body = error.jsonBody
        let head = HTTPResponse(
            status: error.status,
            headerFields: [
                .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes),
                .connection: "close"
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
