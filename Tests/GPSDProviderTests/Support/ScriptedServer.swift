import Foundation
import MeridianTesting
import NIOCore
import NIOPosix

/// A fake gpsd on 127.0.0.1: once a connection has sent its commands (up to `?POLL;`), it is
/// sent `script` (raw bytes) once, then closed unless `closeAfterScript` is false. Reading the
/// commands first matters: closing a socket with unread input makes the kernel send a reset,
/// which would discard the script's tail at the client.
final class ScriptedServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let acceptedCount: Locked<Int>

    init(script: [UInt8], closeAfterScript: Bool = true) async throws {
        let accepted = Locked(0)
        acceptedCount = accepted
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                accepted.withLock { $0 += 1 }
                return child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(ScriptHandler(script: script, close: closeAfterScript))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// Connections accepted so far.
    var connections: Int { acceptedCount.value }

    func stop() async {
        try? await channel.close().get()
    }

    private final class ScriptHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let script: [UInt8]
        let close: Bool
        private var received = ""
        private var sent = false
        init(script: [UInt8], close: Bool) {
            self.script = script
            self.close = close
        }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += String(buffer: unwrapInboundIn(data))
            guard !sent, received.contains("?POLL;") else { return }
            sent = true
            let write = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: script)))
            if close {
                let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
                write.whenComplete { _ in loopBoundContext.value.close(promise: nil) }
            }
        }
    }
}
