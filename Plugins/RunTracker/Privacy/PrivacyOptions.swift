import Foundation
import MeridianCore

/// A zone of the run tracker's `privacy.zones` option.
package struct ConfiguredZone: Sendable, Equatable {
    package var name: String
    package var centre: Coordinate
    package var radius: Double
}

/// The run tracker's `privacy` option: zones and whether the owner's run pages show the whole route.
package struct PrivacyOptions: Decodable, Sendable, Equatable {
    package var zones: [ConfiguredZone] = []
    /// The admin setting: run pages (seen only by the signed-in owner) draw the whole route, zones included.
    /// Exports, pictures and map data served through the API stay cut unless asked with `keep_private=true`.
    package var pagesShowZones = false

    package init() {}

    enum CodingKeys: String, CodingKey {
        case zones
        case pagesShowZones = "pages_show_zones"
    }

    struct Entry: Decodable {
        var name: String
        var center: String
        var radiusM: Double

        enum CodingKeys: String, CodingKey {
            case name, center
            case radiusM = "radius_m"
        }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pagesShowZones = try container.decodeIfPresent(Bool.self, forKey: .pagesShowZones) ?? false
        guard container.contains(.zones) else { return }
        var entries = try container.nestedUnkeyedContainer(forKey: .zones)
        var zones: [ConfiguredZone] = []
        while !entries.isAtEnd {
            let entry = try entries.decode(Entry.self)
            let centre: Coordinate
            do {
                centre = try Coordinate(parsing: entry.center)
            } catch {
                throw DecodingError.dataCorruptedError(
                    in: entries, debugDescription: "zone '\(entry.name)': center \(error); write it as LAT,LON")
            }
            guard entry.radiusM.isFinite, PrivacyZone.radii.contains(entry.radiusM) else {
                throw DecodingError.dataCorruptedError(
                    in: entries,
                    debugDescription:
                        "zone '\(entry.name)': radius_m must be \(Int(PrivacyZone.radii.lowerBound))–\(Int(PrivacyZone.radii.upperBound)) metres, e.g. 300"
                )
            }
            guard !zones.contains(where: { $0.name == entry.name }) else {
                throw DecodingError.dataCorruptedError(
                    in: entries, debugDescription: "zone '\(entry.name)' is given twice")
            }
            zones.append(ConfiguredZone(name: entry.name, centre: centre, radius: entry.radiusM))
        }
        self.zones = zones
    }
}
