import Foundation
import MeridianCore

/// The opaque `next_cursor` of a page: where the next page starts.
package enum SearchCursor: Sendable, Equatable {
    case distance(DistancePosition)
    case title(TitlePosition)

    /// The cursor as URL-safe text.
    package var token: String {
        let payload: String
        switch self {
        case .distance(let position):
            payload = "d" + String(position.distance.bitPattern, radix: 16) + ":" + position.id
        case .title(let position):
            payload = "t" + String(position.title.utf8.count) + ":" + position.title + position.id
        }
        return Base64URL.encoded(payload)
    }

    /// Parses a token from `token`; nil when it was not made by this type.
    package init?(token: String) {
        guard let bytes = Base64URL.decoded(token), let payload = String(validating: bytes, as: UTF8.self),
            let kind = payload.first, let colon = payload.firstIndex(of: ":")
        else { return nil }
        let number = payload[payload.index(after: payload.startIndex)..<colon]
        let rest = payload[payload.index(after: colon)...]
        switch kind {
        case "d":
            guard let bits = UInt64(number, radix: 16) else { return nil }
            let distance = Double(bitPattern: bits)
            guard distance.isFinite, distance >= 0 else { return nil }
            self = .distance(DistancePosition(distance: distance, id: String(rest)))
        case "t":
            guard let length = Int(number), length >= 0, length <= rest.utf8.count else { return nil }
            let bytes = Array(rest.utf8)
            self = .title(
                TitlePosition(
                    title: String(decoding: bytes[..<length], as: UTF8.self),
                    id: String(decoding: bytes[length...], as: UTF8.self)))
        default:
            return nil
        }
    }
}
