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
    /// Where a `CoordinateLinkTemplate` puts its coordinate: written as one NUL byte, which no link holds otherwise
    /// (bases are fixed text and percent-encoding escapes every byte but the unreserved ones).
    case coordinateSlot

    /// The most bytes the value takes in a link.
    var maximumCount: Int {
        switch self {
        case .text(let text): return PercentEncoding.maximumCount(text)
        case .coordinate: return 2 * NumberText.maximumWritten + 1
        case .coordinateSlot: return 1
        }
    }
}

/// A link whose only varying part is one coordinate (`LAT,LON`), kept as the bytes before and after it: a search
/// answers with a link for every result, and this makes each one a single allocation and the coordinate's digits.
struct CoordinateLinkTemplate: Sendable, Equatable {
    private let prefix: [UInt8]
    private let suffix: [UInt8]

    /// The template of `link`, made with `QueryValue.coordinateSlot` in the coordinate's place; nil when it has no slot.
    init?(_ link: String) {
        let bytes = Array(link.utf8)
        guard let slot = bytes.firstIndex(of: 0), !bytes[(slot + 1)...].contains(0) else { return nil }
        prefix = Array(bytes[..<slot])
        suffix = Array(bytes[(slot + 1)...])
    }

    /// The link with `point` in the slot.
    func link(to point: Coordinate) -> String {
        let value = QueryValue.coordinate(point)
        return String(unsafeUninitializedCapacity: prefix.count + suffix.count + value.maximumCount) { buffer in
            var writer = LinkWriter(base: buffer.baseAddress!)
            writer.append(bytes: prefix)
            writer.append(value)
            writer.append(bytes: suffix)
            return writer.count
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
        text.withUTF8 { append(bytes: $0) }
    }

    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(bytes: $0) }
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
        case .coordinateSlot:
            base[count] = 0
            count += 1
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
