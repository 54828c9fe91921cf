import MeridianCore

/// The text pieces of map links: locale-free coordinates and strict percent-encoding.
enum LinkText {
    /// Decimal degrees with at most 6 decimals, trailing zeros trimmed, never `-0` or exponent notation.
    static func degrees(_ value: Double) -> String {
        NumberText.trimmed(value, decimals: degreeDecimals)
    }

    static let degreeDecimals = 6

    /// `LAT,LON`, latitude first, with a literal comma: as a link's query value writes it.
    static func coordinate(_ coordinate: Coordinate) -> String {
        let value = QueryValue.coordinate(coordinate)
        return String(unsafeUninitializedCapacity: value.maximumCount) { buffer in
            var writer = LinkWriter(base: buffer.baseAddress!)
            writer.append(value)
            return writer.count
        }
    }
}

/// One query value: free text (fully encoded) or a coordinate (its comma stays literal).
enum QueryValue {
    case text(String)
    case coordinate(Coordinate)

    /// The most bytes the value takes in a link.
    var maximumCount: Int {
        switch self {
        case .text(let text): return PercentEncoding.maximumCount(text)
        case .coordinate: return 2 * NumberText.maximumWritten + 1
        }
    }
}

/// A link written into a buffer sized for it (a link is made for every result a search answers).
private struct LinkWriter {
    let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    var count = 0

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return }
            (base + count).update(from: start, count: bytes.count)
            count += bytes.count
        }
    }

    mutating func append(_ value: QueryValue) {
        switch value {
        case .text(let text):
            count += PercentEncoding.write(text, to: base + count)
        case .coordinate(let coordinate):
            append(degrees: coordinate.latitude)
            base[count] = UInt8(ascii: ",")
            count += 1
            append(degrees: coordinate.longitude)
        }
    }

    /// `LinkText.degrees(value)`, written in place.
    private mutating func append(degrees value: Double) {
        if let written = NumberText.write(value, decimals: LinkText.degreeDecimals, trimming: true, to: base + count) {
            count += written
        } else {
            append(LinkText.degrees(value))
        }
    }
}

/// Joins `base` and the query items in order, skipping absent values. The items are an `InlineArray`: a link is made
/// for every result a search answers, and its few items need no array on the heap.
func linkURL<let count: Int>(
    _ base: String, _ items: InlineArray<count, (String, QueryValue?)>, fragment: String? = nil
) -> String {
    var capacity = base.utf8.count + 1 + (fragment?.utf8.count ?? 0)
    for index in items.indices {
        capacity += items[index].0.utf8.count + 2 + (items[index].1?.maximumCount ?? 0)
    }
    return String(unsafeUninitializedCapacity: capacity) { buffer in
        var link = LinkWriter(base: buffer.baseAddress!)
        link.append(base)
        var separator = "?"
        for index in items.indices {
            guard let value = items[index].1 else { continue }
            link.append(separator)
            link.append(items[index].0)
            link.append("=")
            link.append(value)
            separator = "&"
        }
        if let fragment {
            link.append("#")
            link.append(fragment)
        }
        return link.count
    }
}
