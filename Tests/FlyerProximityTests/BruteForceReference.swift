import Foundation
import MeridianCore

@testable import FlyerProximity

/// The obvious search: every flyer measured exactly, sorted by (distance, id).
///
/// To stay fast in a debug build it skips only flyers that provably cannot qualify:
/// points whose latitude alone puts them beyond the radius (the meridian arc between two
/// parallels is the shortest path between them, and the meridional radius is at least
/// b²/a), and areas beyond their first vertex's distance less the area's extent.
struct BruteForceReference {
    private struct Area {
        let prepared: PreparedFlyer
        let firstVertex: Coordinate
        /// Every point of the area lies within this many metres of `firstVertex`.
        let extent: Double
    }

    private let points: [(latitude: Double, prepared: PreparedFlyer)]
    private let areas: [Area]
    /// b²/a for WGS84, rounded down.
    private static let minimumMeridionalRadius = 6_335_439.0

    init(_ flyers: [Flyer]) {
        var points: [(Double, PreparedFlyer)] = []
        var areas: [Area] = []
        for flyer in flyers {
            guard let prepared = PreparedFlyer(flyer) else { continue }
            switch flyer.geometry {
            case .point(let point):
                points.append((point.latitude, prepared))
            case .polygon, .multiPolygon:
                let rings = flyer.geometry.polygons.flatMap { $0 }
                let first = rings[0][0]
                var extent = 0.0
                for ring in rings {
                    for index in 0..<(ring.count - 1) {
                        let length = Geodesic.wgs84.distance(ring[index], ring[index + 1])
                        let far = max(
                            Geodesic.wgs84.distance(first, ring[index]), Geodesic.wgs84.distance(first, ring[index + 1])
                        )
                        extent = max(extent, far + length / 2)
                    }
                }
                areas.append(Area(prepared: prepared, firstVertex: first, extent: extent))
            }
        }
        self.points = points.sorted { $0.0 < $1.0 }
        self.areas = areas
    }

    func nearby(_ query: NearbyQuery) -> NearbyMatches {
        let keep = query.limit + 1
        var radius = query.radius ?? 2000
        while true {
            let matches = within(radius, query)
            if query.radius != nil || matches.count >= keep || radius > 2.1e7 {
                return NearbyMatches(matches: Array(matches.prefix(query.limit)), hasMore: matches.count > query.limit)
            }
            radius *= 4
        }
    }

    /// Every qualifying flyer within `radius`, sorted.
    private func within(_ radius: Double, _ query: NearbyQuery) -> [NearbyMatch] {
        var matches: [NearbyMatch] = []
        func consider(_ prepared: PreparedFlyer) {
            let flyer = prepared.flyer
            if let category = query.category, flyer.category?.lowercased() != category.lowercased() { return }
            if !query.includeInactive && !flyer.isActive(at: query.at) { return }
            let (distance, point) = prepared.distance(from: query.center)
            guard distance <= radius else { return }
            if let after = query.after,
                !(after.distance < distance || (after.distance == distance && after.id < flyer.id))
            {
                return
            }
            matches.append(NearbyMatch(flyer: flyer, distance: distance, nearest: point))
        }
        let band = radius / Self.minimumMeridionalRadius * 180 / .pi
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].latitude < query.center.latitude - band { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < points.count && points[index].latitude <= query.center.latitude + band {
            consider(points[index].prepared)
            index += 1
        }
        for area in areas where Geodesic.wgs84.distance(query.center, area.firstVertex) - area.extent <= radius {
            consider(area.prepared)
        }
        return matches.sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.flyer.id < $1.flyer.id) }
    }
}
