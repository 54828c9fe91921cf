import Foundation
import GPSDProtocol
import MeridianCore
import NIOCore

/// Speaks gpsd's protocol on one TCP connection: enables watching, asks for an
/// immediate `?POLL;`, feeds lines to the session, emits quiet epochs, and
/// probes a silent gpsd before declaring the connection dead.
final class GPSDConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = LineFrame<ByteBuffer>
    typealias OutboundOut = ByteBuffer

    private let session: GPSDSession
    private let outcome: ConnectionRecord
    private let watchCommand: String
    private let timing: GPSDTiming
    private var quietFlush: Scheduled<Void>?
    private var probed = false

    init(session: GPSDSession, outcome: ConnectionRecord, watchCommand: String, timing: GPSDTiming) {
        self.session = session
        self.outcome = outcome
        self.watchCommand = watchCommand
        self.timing = timing
    }

    func channelActive(context: ChannelHandlerContext) {
        session.reportConnected()
        send(watchCommand + "\n?POLL;\n", context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        probed = false
        switch unwrapInboundIn(data) {
        case .overlong(let length):
            session.context.health.count("overlong_lines")
            session.context.logger.warning(
                "discarded a \(length)-byte line from gpsd at \(session.endpoint) (limit \(timing.maximumLineLength) bytes)"
            )
        case .line(let line):
            switch session.feed(line.readableBytesView) {
            case .accepted:
                outcome.noteProgress()
            case .rejected(let error):
                if case .unsupportedProtocol = error {
                    outcome.close(because: error.description)
                    context.close(promise: nil)
                    return
                }
                session.context.logger.debug("\(error)")
            }
        }
        scheduleQuietFlush(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if probed {
            session.context.health.count("stalls")
            outcome.close(because: "gpsd at \(session.endpoint) stopped sending (no answer to ?POLL;)")
            context.close(promise: nil)
        } else {
            probed = true
            send("?POLL;\n", context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        quietFlush?.cancel()
        session.flush()
        outcome.close(because: "gpsd at \(session.endpoint) closed the connection")
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        outcome.close(because: "connection to gpsd at \(session.endpoint) failed: \(error)")
        context.close(promise: nil)
    }

    private func send(_ text: String, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
    }

    private func scheduleQuietFlush(context: ChannelHandlerContext) {
        quietFlush?.cancel()
        quietFlush = nil
        guard session.hasPendingEpoch else { return }
        let session = self.session
        quietFlush = context.eventLoop.assumeIsolated().scheduleTask(in: timing.epochQuietPeriod) {
            session.flush()
        }
    }
}
