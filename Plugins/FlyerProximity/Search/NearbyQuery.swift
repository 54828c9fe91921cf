import Foundation
import MeridianCore

/// A proximity search: flyers sorted by exact ellipsoidal distance from `center`, ties by id.
package struct NearbyQuery: Sendable, Equatable {
    package var center: Coordinate
    /// Only flyers within this many metres; nil: the `limit` nearest wherever they are.
    package var radius: Double?
    /// Page size.
    package var limit: Int
    /// Only flyers of this category (compared without regard to case).
    package var category: String?
    /// The instant at which validity is judged.
    package var at: Date
    /// Also return expired and not-yet-valid flyers.
    package var includeInactive: Bool
    /// Continue after this (distance, id) position, from the previous page's cursor.
    package var after: DistancePosition?
    /// Only flyers whose text has every word of this (`q`).
    package var text: TextQuery?

    package init(
        center: Coordinate, radius: Double? = nil, limit: Int = 20, category: String? = nil, at: Date = Date(),
        includeInactive: Bool = false, after: DistancePosition? = nil, text: TextQuery? = nil
    ) {
        self.center = center
        self.radius = radius
        self.limit = limit
        self.category = category
        self.at = at
        self.includeInactive = includeInactive
        self.after = after
        self.text = text
    }

    /// The filters other than distance.
    var filter: FlyerFilter {
        FlyerFilter(category: category, at: at, includeInactive: includeInactive, text: text)
    }
}

/// A position in distance order: results come strictly after it.
package struct DistancePosition: Sendable, Equatable, Hashable {
    package var distance: Double
    package var id: String

    package init(distance: Double, id: String) {
        self.distance = distance
        self.id = id
    }

    /// True when (`distance`, `id`) sorts before `other`.
    func precedes(_ distance: Double, _ id: String) -> Bool {
        self.distance < distance || (self.distance == distance && self.id < id)
    }
}

/// A position in title order, for listings without a location.
package struct TitlePosition: Sendable, Equatable, Hashable {
    package var title: String
    package var id: String

    package init(title: String, id: String) {
        self.title = title
        self.id = id
    }

    func precedes(_ title: String, _ id: String) -> Bool {
        self.title < title || (self.title == title && self.id < id)
    }
}

/// One search hit.
package struct NearbyMatch: Sendable, Equatable {
    package var flyer: Flyer
    /// Exact ellipsoidal distance in metres (0 inside an area).
    package var distance: Double
    /// The flyer's point nearest to the centre (the centre itself inside an area).
    package var nearest: Coordinate
    /// The initial bearing from the centre to `nearest` when the search solved it with the distance (the same
    /// geodesic); nil when it did not, and the answer solves it.
    package var bearing: Double? = nil

    package var position: DistancePosition { DistancePosition(distance: distance, id: flyer.id) }

    /// The same flyer at the same distance and nearest point: `bearing` follows from those, whether or not the
    /// search that found the match solved it on the way.
    package static func == (left: NearbyMatch, right: NearbyMatch) -> Bool {
        left.flyer == right.flyer && left.distance == right.distance && left.nearest == right.nearest
    }
}

/// One page of matches, and whether more follow.
package struct NearbyMatches: Sendable, Equatable {
    package var matches: [NearbyMatch]
    package var hasMore: Bool
}

/// Filters shared by distance and title searches.
struct FlyerFilter {
    var category: String?
    var at: Date
    var includeInactive: Bool
    var text: TextQuery?

    /// True when `flyer` passes: its category is the filter's (letter case aside), it is valid at `at` unless
    /// inactive flyers are included, and its text has the query's words.
    func admits(_ flyer: Flyer) -> Bool {
        if let category, flyer.category?.lowercased() != category.lowercased() { return false }
        guard includeInactive || flyer.isActive(at: at) else { return false }
        return text?.matches(flyer) ?? true
    }
}
