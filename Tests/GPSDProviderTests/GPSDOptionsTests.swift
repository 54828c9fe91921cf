import Foundation
import GPSDProtocol
import MeridianCore
import NIOCore
import NIOEmbedded
import Testing

@testable import GPSDProvider

@Suite("GPSD options, backoff and line framing")
struct GPSDOptionsTests {
    @Test("defaults: 127.0.0.1:2947, all devices")
    func defaults() throws {
        let options = try GPSDOptions.decode(PluginOptions(yaml: ""))
        #expect(options == GPSDOptions(host: "127.0.0.1", port: 2947, device: nil))
        let custom = try GPSDOptions.decode(PluginOptions(yaml: "host: ::1\nport: 3000\ndevice: /dev/ttyUSB0"))
        #expect(custom == GPSDOptions(host: "::1", port: 3000, device: "/dev/ttyUSB0"))
    }

    @Test(
        "bad values name their key",
        arguments: [
            ("port: 0", "port"), ("port: 70000", "port"), ("device: ttyUSB0", "device"), ("hostname: x", "hostname")
        ])
    func badValues(yaml: String, key: String) throws {
        #expect {
            _ = try GPSDOptions.decode(PluginOptions(yaml: yaml, path: "providers[0]"))
        } throws: { error in
            "\(error)".contains("providers[0].\(key)")
        }
    }

    @Test("the registration builds a provider with the configured id")
    func registration() throws {
        let context = ProviderContext(plugin: PluginContext(id: "car", logger: .init(label: "t"))) { _ in }
        let provider = try GPSDProvider.registration.make(PluginOptions(yaml: "port: 2948"), context)
        #expect(provider.id == "car")
        #expect(GPSDProvider.registration.type == "gpsd")
        #expect(GPSDProvider.registration.options.map(\.name) == ["host", "port", "device"])
    }

    @Test("the watch command enables JSON and names a chosen device, JSON-escaped")
    func watchCommand() {
        #expect(GPSDProvider.watchCommand(device: nil) == #"?WATCH={"enable":true,"json":true};"#)
        #expect(
            GPSDProvider.watchCommand(device: #"/dev/a"b"#)
                == #"?WATCH={"enable":true,"json":true,"device":"\/dev\/a\"b"};"#
                || GPSDProvider.watchCommand(device: #"/dev/a"b"#)
                    == #"?WATCH={"enable":true,"json":true,"device":"/dev/a\"b"};"#
        )
    }

    @Test("the default reconnection schedule is 1 s doubling to 30 s, and restarts after a reset")
    func defaultBackoff() {
        var backoff = GPSDTiming().backoff
        let delays = (0..<7).map { _ in backoff.nextDelay() }
        #expect(
            delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)])
        backoff.reset()
        #expect(backoff.nextDelay() == .seconds(1))
    }

    @Test("the channel handler cuts gpsd's stream into lines and overlong lines, and hands over the tail at the end")
    func lineFraming() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(BoundedLineDecoder(maximumLength: 16)))
        for chunk in ["first\r\nsec", "ond\n"] + Array(repeating: "0123456789", count: 100) + [
            "tail of the long line\nafter\nunterminated"
        ] {
            try channel.writeInbound(ByteBuffer(string: chunk))
        }
        var frames: [String] = []
        func drain() throws {
            while let frame = try channel.readInbound(as: LineFrame<ByteBuffer>.self) {
                frames.append(Self.text(frame))
            }
        }
        try drain()
        #expect(frames == ["first", "second", "overlong 1021", "after"])
        channel.pipeline.fireChannelInactive()
        try drain()
        #expect(frames == ["first", "second", "overlong 1021", "after", "unterminated"])
        #expect(try channel.finish().isClean)
    }

    private static func text(_ frame: LineFrame<ByteBuffer>) -> String {
        switch frame {
        case .line(let buffer): return String(buffer: buffer)
        case .overlong(let length): return "overlong \(length)"
        }
    }
}
