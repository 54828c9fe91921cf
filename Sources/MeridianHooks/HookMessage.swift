import Crypto
import Foundation
import MeridianCore
import MeridianStore

/// What a hook receives for one event: the JSON body `{"id", "type", "time", "data"}` (`data` is the payload as on
/// `GET /v1/events`) and the headers, `X-Meridian-Signature` holding the HMAC-SHA256 of the body with the secret.
struct HookMessage {
    var body: [UInt8]
    var headers: [(String, String)]

    init(_ delivery: HookDeliveries.Pending, secret: String) {
        let text =
            #"{"id":"\#(delivery.eventID)","type":\#(Self.quoted(delivery.type)),"time":"\#(ISO8601.string(from: delivery.time))","data":\#(delivery.body)}"#
        body = Array(text.utf8)
        headers = [
            ("User-Agent", "Meridian/\(MeridianVersion.current)"),
            ("X-Meridian-Event-Id", delivery.eventID),
            ("X-Meridian-Event", delivery.type),
            ("X-Meridian-Attempt", "\(delivery.attempts + 1)"),
            ("X-Meridian-Signature", Self.signature(of: body, secret: secret))
        ]
    }

    /// `sha256=` and the lowercase hex HMAC-SHA256 of `body` keyed with the UTF-8 bytes of `secret`.
    static func signature(of body: [UInt8], secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }

    private static func quoted(_ text: String) -> String {
        (try? MeridianJSON.string(text)) ?? "\"\""
    }
}
