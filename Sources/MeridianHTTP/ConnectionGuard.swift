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
/// - tells `RequestHeadDeadline` when a head has arrived and when the next one is awaited.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let headDeadline: RequestHeadDeadline
    /// A request's head has arrived and its end has not.
    private var readingRequest = false
    /// A request's head has arrived and its response's end has not been written.
    private var answering = false
    private var closeAfterResponse = false

    init(headDeadline: RequestHeadDeadline) {
        self.headDeadline = headDeadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            answering = true
            headDeadline.headArrived()
        case .body:
            break
        case .end:
            readingRequest = false
            if !answering { headDeadline.awaitNextHead() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            if response.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            answering = false
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
        let body = APIError.badRequest("the request is not valid HTTP/1.1 (\(error)); check the request line, header names and values",
                                       code: "malformed_request").jsonBody
        let head = HTTPResponse(status: .badRequest, headerFields: [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes), .connection: "close",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}
