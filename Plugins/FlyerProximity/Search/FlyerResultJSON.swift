import Foundation
import MeridianCore

// The nearby and list answers written straight as JSON bytes: the same text `MeridianJSON` encodes
// (snake_case keys in sorted order, absent optionals left out), at a fraction of the encoder's cost.

extension NearbyResponse: DirectJSONEncodable {
    package var directJSONCapacity: Int? {
        guard center.map({ $0.lat.isFinite && $0.lon.isFinite }) ?? true, radiusM?.isFinite ?? true,
            items.allSatisfy(\.hasFiniteNumbers)
        else { return nil }
        return 320 + (nextCursor.map(JSONScratchWriter.escapedCapacity) ?? 0) + items.reduce(0) { $0 + $1.jsonCapacity }
    }

    package func writeDirectJSON(to out: inout JSONScratchWriter) {
        out.object { out in
            if let center {
                out.append(#","center":"#)
                out.object { out in
                    out.number(NumberKeys.lat, center.lat)
                    out.number(NumberKeys.lon, center.lon)
                }
            }
            out.append(#","items":"#)
            FlyerResult.write(items, to: &out)
            out.bool(#","location_available":"#, locationAvailable)
            out.string(#","next_cursor":"#, nextCursor)
            out.number(NumberKeys.radiusM, radiusM)
            out.bool(#","stale":"#, stale)
        }
    }
}

extension FlyerList: DirectJSONEncodable {
    package var directJSONCapacity: Int? {
        guard items.allSatisfy(\.hasFiniteNumbers) else { return nil }
        return 96 + (nextCursor.map(JSONScratchWriter.escapedCapacity) ?? 0) + items.reduce(0) { $0 + $1.jsonCapacity }
    }

    package func writeDirectJSON(to out: inout JSONScratchWriter) {
        out.object { out in
            out.append(#","items":"#)
            FlyerResult.write(items, to: &out)
            out.string(#","next_cursor":"#, nextCursor)
            out.bool(#","stale":"#, stale)
        }
    }
}

extension FlyerResult {
    /// Every number can be written (the encoder refuses NaN and infinities).
    var hasFiniteNumbers: Bool {
        radiusM.isFinite && lat.isFinite && lon.isFinite && (distanceM?.isFinite ?? true) && (bearing?.isFinite ?? true)
    }

    /// The most bytes `write` takes for this result: its texts escaped, keys, numbers and dates.
    var jsonCapacity: Int {
        func capacity(_ text: String?) -> Int { text.map(JSONScratchWriter.escapedCapacity) ?? 0 }
        return 640 + capacity(id) + capacity(title) + capacity(geometryType) + capacity(description)
            + capacity(address) + capacity(category) + capacity(url) + capacity(distanceText) + capacity(mapUrl)
    }

    /// `[` the results `]`, each an object with its keys in sorted order.
    static func write(_ items: [FlyerResult], to out: inout JSONScratchWriter) {
        out.append("[")
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(",") }
            out.object { out in
                out.string(#","address":"#, item.address)
                out.number(NumberKeys.bearing, item.bearing)
                out.string(#","category":"#, item.category)
                out.string(#","description":"#, item.description)
                out.number(NumberKeys.distanceM, item.distanceM)
                out.string(#","distance_text":"#, item.distanceText)
                out.string(#","geometry_type":"#, item.geometryType)
                out.string(#","id":"#, item.id)
                out.number(NumberKeys.lat, item.lat)
                out.number(NumberKeys.lon, item.lon)
                out.string(#","map_url":"#, item.mapUrl)
                out.number(NumberKeys.radiusM, item.radiusM)
                out.string(#","title":"#, item.title)
                out.string(#","url":"#, item.url)
                out.date(#","valid_from":"#, item.validFrom)
                out.date(#","valid_until":"#, item.validUntil)
            }
        }
        out.append("]")
    }
}

/// The number keys of these answers, with their rounding (`JSONRounding`) worked out once.
private enum NumberKeys {
    static let bearing = JSONKey(#","bearing":"#)
    static let distanceM = JSONKey(#","distance_m":"#)
    static let lat = JSONKey(#","lat":"#)
    static let lon = JSONKey(#","lon":"#)
    static let radiusM = JSONKey(#","radius_m":"#)
}
