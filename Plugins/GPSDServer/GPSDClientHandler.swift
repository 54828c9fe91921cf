import Foundation
import GPSDProtocol
import MeridianCore
import NIOCore

/// One client connection on the gpsd port (`.json`) or on `nmea_port` (`.nmea`).
///
/// Runs on the connection's event loop. A client that leaves more than its buffer unread (the channel stops being
/// writable) is disconnected and counted, as gpsd drops a client whose write would block; nothing it misses is kept.
final class GPSDClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum Kind { case json, nmea }

    private let kind: Kind
    private let hub: GPSDClientHub
    private let release: String
    private var policy = GPSDWatchPolicy()
    private var pending: [UInt8] = []
    private var clientID: Int?
    private var discardingOverlong = false

    init(kind: Kind, hub: GPSDClientHub, release: String) {
        self.kind = kind
        self.hub = hub
        self.release = release
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        let eventLoop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: eventLoop)
        let client = GPSDClientHub.Client(
            eventLoop: eventLoop,
            deliver: { broadcast in handler.value.deliver(broadcast, to: channel) },
            close: { channel.close(promise: nil) })
        guard let id = hub.admit(client) else {
            context.close(promise: nil)  // gpsd closes a connection it has no slot for, without a word
            return
        }
        clientID = id
        if kind == .json { write(GPSDReportWriter.version(release: release), to: channel) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let clientID { hub.remove(clientID) }
        clientID = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable, clientID != nil {
            hub.countDropped()
            context.close(promise: nil)
        }
        context.fireChannelWritabilityChanged()
    }

    /// No request for the command timeout: a client that does not watch is closed, as gpsd closes it.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read, !policy.enable {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard kind == .json, clientID != nil else { return }  // the NMEA port reads nothing
        var buffer = unwrapInboundIn(data)
        pending.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        if discardingOverlong {
            // The rest of a request that was too long, up to its end, goes too.
            guard let end = pending.firstIndex(where: Self.endsRequest) else {
                pending.removeAll()
                return
            }
            pending.removeSubrange(...end)
            discardingOverlong = false
        }
        // gpsd treats what one read brings as whole requests; a request ends at a newline or a `;`.
        if let end = pending.lastIndex(where: Self.endsRequest) {
            let text = String(decoding: pending[...end], as: UTF8.self)
            pending.removeSubrange(...end)
            answer(GPSDRequest.parse(Substring(text)), on: context.channel)
        }
        if pending.count > GPSDRequest.maximumLength {
            pending.removeAll()
            discardingOverlong = true
            write(
                GPSDReportWriter.error("Request too long: gpsd reads at most \(GPSDRequest.maximumLength) bytes"),
                to: context.channel)
        }
    }

    private static func endsRequest(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: ";")
    }

    private func answer(_ requests: [GPSDRequest], on channel: any Channel) {
        var reply = ""
        for request in requests {
            switch request {
            case .devices:
                reply += GPSDReportWriter.devices(hub.devices)
            case .version:
                reply += GPSDReportWriter.version(release: release)
            case .poll:
                let fixes = hub.latest(device: policy.device).map { [$0] } ?? []
                reply += GPSDReportWriter.poll(time: Date(), fixes: fixes)
            case .watch(let json):
                reply += watch(json)
            case .device(let json):
                reply += device(json)
            case .unrecognized(let message):
                reply += GPSDReportWriter.error(message)
            }
        }
        if !reply.isEmpty { write(reply, to: channel) }
    }

    /// `?WATCH`: the new policy, answered with DEVICES and WATCH; an unknown device is an ERROR only, as in gpsd.
    private func watch(_ json: Substring?) -> String {
        var updated = policy
        if let json {
            do {
                try updated.apply(json: json)
            } catch {
                return GPSDReportWriter.error(error.message)
            }
        }
        let devices = hub.devices
        if updated.enable, let device = updated.device, !devices.contains(where: { $0.path == device }) {
            return GPSDReportWriter.error("No such device as \(device)")
        }
        policy = updated
        if let clientID { hub.setWantsNMEA(clientID, policy.enable && (policy.nmea || policy.raw > 0)) }
        return GPSDReportWriter.devices(devices) + GPSDReportWriter.watch(policy)
    }

    /// `?DEVICE`: read-only; lists one device or every device.
    private func device(_ json: Substring?) -> String {
        let devices = hub.devices
        guard let json else { return devices.map(GPSDReportWriter.device).joined() }
        guard let object = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)),
            Set(object.keys).isSubset(of: ["class", "path"])
        else { return GPSDReportWriter.error("Meridian's devices are read-only: ?DEVICE takes only a path") }
        guard let path = object["path"] else { return devices.map(GPSDReportWriter.device).joined() }
        guard let found = devices.first(where: { $0.path == path }) else {
            return GPSDReportWriter.error("Can't open \(path).")
        }
        return GPSDReportWriter.device(found)
    }

    /// Writes what the client watches of `broadcast`.
    private func deliver(_ broadcast: GPSDBroadcast, to channel: any Channel) {
        guard clientID != nil, channel.isActive else { return }
        switch kind {
        case .nmea:
            if broadcast.device == nil, broadcast.sentence == nil {
                channel.writeAndFlush(broadcast[.port], promise: nil)
            }
        case .json:
            guard policy.enable else { return }
            let nmea = policy.nmea || policy.raw > 0
            if let sentence = broadcast.sentence {
                // A receiver's own sentence: for its device's watchers, and the fused stream's while it wins.
                let watched = broadcast.device == policy.device || (policy.device == nil && broadcast.flag)
                if nmea, watched { channel.writeAndFlush(sentence, promise: nil) }
                return
            }
            guard broadcast.device == policy.device else { return }
            // Synthesised sentences only for a provider that hands on none of its own.
            if nmea, !broadcast.flag { channel.write(broadcast[.nmea], promise: nil) }
            if policy.json { channel.write(broadcast[.json], promise: nil) }
            if nmea || policy.json { channel.flush() }
        }
    }

    private func write(_ text: String, to channel: any Channel) {
        channel.writeAndFlush(ByteBuffer(string: text), promise: nil)
    }
}
