import MeridianCore

/// The `gpsd-server` consumer's options.
struct GPSDServerOptions: Decodable, Sendable, Equatable {
    /// Address to listen on; loopback unless configured otherwise (gpsd's protocol has no authentication).
    var host = "127.0.0.1"
    /// gpsd's JSON protocol port.
    var port = 2947
    /// Connections served at once (both ports together); more are refused.
    var maxClients = 64
    /// NMEA 0183 over TCP (GGA, RMC, VTG per fix) on this port when set, e.g. 10110.
    var nmeaPort: Int?
    /// Bytes a client may leave unread before it is disconnected.
    var clientBuffer = 65_536

    enum CodingKeys: String, CodingKey {
        case host, port
        case maxClients = "max_clients"
        case nmeaPort = "nmea_port"
        case clientBuffer = "client_buffer"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? host
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? port
        maxClients = try container.decodeIfPresent(Int.self, forKey: .maxClients) ?? maxClients
        nmeaPort = try container.decodeIfPresent(Int.self, forKey: .nmeaPort)
        clientBuffer = try container.decodeIfPresent(Int.self, forKey: .clientBuffer) ?? clientBuffer
    }

    /// The documentation of each option, for `meridian plugins`.
    static let info: [OptionInfo] = [
        OptionInfo(
            "host", "string", default: "127.0.0.1",
            "address to listen on; gpsd's protocol has no authentication, so keep loopback unless the network is trusted"
        ),
        OptionInfo(
            "port", "integer 0...65535", default: "2947", "port of gpsd's JSON protocol; 0: any free port (logged)"),
        OptionInfo(
            "max_clients", "integer 1...10000", default: "64",
            "connections served at once on both ports; more are refused"),
        OptionInfo(
            "nmea_port", "integer 0...65535", default: "none",
            "also serve the fused fix as NMEA 0183 (GGA, RMC, VTG) over TCP here, e.g. 10110"),
        OptionInfo(
            "client_buffer", "integer 4096...16777216", default: "65536",
            "bytes a client may leave unread before it is disconnected")
    ]

    /// Decodes and validates options from the configuration.
    static func decode(_ options: PluginOptions) throws(ConfigError) -> GPSDServerOptions {
        let decoded = try options.decode(GPSDServerOptions.self)
        guard !decoded.host.isEmpty else {
            throw options.error(key: "host", "is empty; give an address to listen on, e.g. 127.0.0.1")
        }
        guard (0...65_535).contains(decoded.port) else {
            throw options.error(
                key: "port", "\(decoded.port) is not a TCP port; give 1...65535 (gpsd's is 2947), or 0 for any free one"
            )
        }
        if let nmeaPort = decoded.nmeaPort {
            guard (0...65_535).contains(nmeaPort) else {
                throw options.error(
                    key: "nmea_port", "\(nmeaPort) is not a TCP port; give 1...65535, e.g. 10110, or 0 for any free one"
                )
            }
            guard nmeaPort != decoded.port || nmeaPort == 0 else {
                throw options.error(
                    key: "nmea_port", "\(nmeaPort) is also `port`; give the NMEA stream a port of its own, e.g. 10110")
            }
        }
        guard (1...10_000).contains(decoded.maxClients) else {
            throw options.error(key: "max_clients", "\(decoded.maxClients) is out of range; give 1...10000")
        }
        guard (4096...16_777_216).contains(decoded.clientBuffer) else {
            throw options.error(
                key: "client_buffer", "\(decoded.clientBuffer) bytes is out of range; give 4096...16777216")
        }
        return decoded
    }
}
