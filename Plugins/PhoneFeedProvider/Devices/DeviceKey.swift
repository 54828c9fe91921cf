import Crypto
import MeridianCore

/// A device's secret: 32 random bytes (256 bits) written as unpadded base64url, stored only as its SHA-256.
enum DeviceKey {
    /// A new random key.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encoded(bytes: bytes)
    }

    /// The stored form of `key`: its SHA-256 (swift-crypto).
    static func hash(_ key: String) -> [UInt8] { Array(SHA256.hash(data: Array(key.utf8))) }

    /// Compares two hashes in time that depends only on their lengths (both 32 bytes here).
    static func matches(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
