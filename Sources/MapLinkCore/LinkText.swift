import MeridianCore

/// The text pieces of map links: locale-free coordinates and strict percent-encoding.
enum LinkText {
    /// Decimal degrees with at most 6 decimals, trailing zeros trimmed, never `-0` or exponent notation.
    static func degrees(_ value: Double) -> String {
        NumberText.trimmed(value, decimals: 6)
    }

    /// `LAT,LON`, latitude first, with a literal comma.
    static func coordinate(_ coordinate: Coordinate) -> String {
        "\(degrees(coordinate.latitude)),\(degrees(coordinate.longitude))"
    }

    /// Percent-encodes UTF-8 `text`, leaving only RFC 3986 unreserved characters literal (`PercentEncoding`).
    static func encoded(_ text: String) -> String {
        PercentEncoding.encoded(text)
    }
}

/// One query value: free text (fully encoded) or a coordinate (its comma stays literal).
enum QueryValue {
    case text(String)
    case coordinate(Coordinate)

    var encoded: String {
        switch self {
        case .text(let text): return LinkText.encoded(text)
        case .coordinate(let coordinate): return LinkText.coordinate(coordinate)
        }
    }
}

/// Joins `base` and the query items in order, skipping absent values.
func linkURL(_ base: String, _ items: [(String, QueryValue?)], fragment: String? = nil) -> String {
    var url = base
    var separator = "?"
    for case (let name, let value?) in items {
        url += separator
        url += name
        url += "="
        url += value.encoded
        separator = "&"
    }
    if let fragment {
        url += "#"
        url += fragment
    }
    return url
}
