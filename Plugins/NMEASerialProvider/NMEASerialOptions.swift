import MeridianCore
import NMEA

/// The `nmea-serial` provider's options.
struct NMEASerialOptions: Decodable, Sendable, Equatable {
    /// Standard serial rates accepted for `baud`.
    static let standardBaudRates = [4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600]

    /// Serial device path, e.g. `/dev/ttyUSB0` or `/dev/serial/by-id/...`.
    var device: String
    /// Line speed in bits per second.
    var baud = 4800
    /// Whether sentences without a `*hh` checksum are accepted.
    var checksum = ChecksumPolicy.required
    /// Sentences written after opening (e.g. rate commands); `$`, checksum and CRLF are added when missing.
    var initSentences: [String] = []
    /// Seconds without any byte after which the device counts as gone and is reopened.
    var silenceTimeout = 5.0

    init(
        device: String, baud: Int = 4800, checksum: ChecksumPolicy = .required, initSentences: [String] = [],
        silenceTimeout: Double = 5
    ) {
        self.device = device
        self.baud = baud
        self.checksum = checksum
        self.initSentences = initSentences
        self.silenceTimeout = silenceTimeout
    }

    enum CodingKeys: String, CodingKey {
        case device, baud, checksum
        case initSentences = "init"
        case silenceTimeout = "silence_timeout"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(String.self, forKey: .device)
        baud = try container.decodeIfPresent(Int.self, forKey: .baud) ?? baud
        checksum = try container.decodeIfPresent(ChecksumPolicy.self, forKey: .checksum) ?? checksum
        initSentences = try container.decodeIfPresent([String].self, forKey: .initSentences) ?? []
        silenceTimeout = try container.decodeIfPresent(Double.self, forKey: .silenceTimeout) ?? silenceTimeout
    }

    /// Decodes and validates options from the configuration.
    static func decode(_ options: PluginOptions) throws(ConfigError) -> NMEASerialOptions {
        let decoded = try options.decode(NMEASerialOptions.self)
        guard decoded.device.hasPrefix("/") else {
            throw options.error(
                key: "device",
                "'\(decoded.device)' is not an absolute device path; give e.g. /dev/ttyUSB0 or /dev/serial/by-id/…")
        }
        guard standardBaudRates.contains(decoded.baud) else {
            let allowed = standardBaudRates.map(String.init).joined(separator: ", ")
            throw options.error(key: "baud", "\(decoded.baud) is not a standard rate; expected one of: \(allowed)")
        }
        guard decoded.silenceTimeout > 0, decoded.silenceTimeout <= 3600 else {
            throw options.error(
                key: "silence_timeout", "\(decoded.silenceTimeout) is out of range; give seconds in 0...3600, e.g. 5")
        }
        for (index, sentence) in decoded.initSentences.enumerated() {
            do {
                _ = try InitSentence.frame(sentence)
            } catch {
                throw options.error(key: "init", "entry \(index + 1): \(error)")
            }
        }
        return decoded
    }
}
