import MeridianCore
import NIOCore

/// The `gpsd` provider's options.
struct GPSDOptions: Decodable, Sendable, Equatable {
    /// gpsd's address (loopback by default).
    var host = "127.0.0.1"
    /// gpsd's TCP port.
    var port = 2947
    /// Watch only this device path, e.g. `/dev/ttyUSB0`; all devices when absent.
    var device: String?

    init(host: String = "127.0.0.1", port: Int = 2947, device: String? = nil) {
        self.host = host
        self.port = port
        self.device = device
    }

    enum CodingKeys: String, CodingKey { case host, port, device }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? host
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? port
        device = try container.decodeIfPresent(String.self, forKey: .device)
    }

    /// Decodes and validates options from the configuration.
    static func decode(_ options: PluginOptions) throws(ConfigError) -> GPSDOptions {
        let decoded = try options.decode(GPSDOptions.self)
        guard (1...65_535).contains(decoded.port) else {
            throw options.error(key: "port", "\(decoded.port) is not a TCP port; give 1...65535 (gpsd listens on 2947)")
        }
        guard !decoded.host.isEmpty else {
            throw options.error(key: "host", "is empty; give gpsd's address, e.g. 127.0.0.1")
        }
        if let device = decoded.device, !device.hasPrefix("/") {
            throw options.error(
                key: "device", "'\(device)' is not a device path; give gpsd's path for it, e.g. /dev/ttyUSB0")
        }
        return decoded
    }
}

/// Timings of the gpsd client; tests shorten them.
struct GPSDTiming: Sendable {
    /// Delays between reconnection attempts.
    var backoff = Backoff()
    /// How long a TCP connection attempt may take.
    var connectTimeout: TimeAmount = .seconds(5)
    /// After this long without a line, `?POLL;` is sent to check that gpsd is alive; if nothing
    /// arrives for this long again, the connection counts as dead.
    var probeAfter: TimeAmount = .seconds(5)
    /// An epoch is emitted once no TPV has arrived for this long (gpsd sends several per epoch).
    var epochQuietPeriod: TimeAmount = .milliseconds(250)
    /// Longest JSON line accepted (gpsd's own limit is 10 KiB).
    var maximumLineLength = 10 * 1024
}
