import Foundation
import GRDB
import MeridianCore

/// The filter every exit of a run goes through: the circles of the stored privacy zones (each moved and widened by
/// its secret, see `PrivacyZone.hidden`), and what they cut from a run's points or any sequence of positions.
///
/// Read them with `PrivacyZones.load(_:)` (every zone stored by `meridian privacy add` and every configured one the
/// run tracker has synchronised). Distances, times and totals are never computed from what is left: compute them
/// from the whole route, then cut what is shown.
package struct PrivacyZones: Sendable {
    package let circles: [HiddenCircle]

    /// No zone: nothing is cut.
    package static let none = PrivacyZones(circles: [])

    package init(circles: [HiddenCircle]) { self.circles = circles }

    package init(zones: [PrivacyZone]) { self.init(circles: zones.map(\.hidden)) }

    /// The stored zones' circles.
    package static func load(_ db: Database) throws -> PrivacyZones {
        PrivacyZones(zones: try PrivacyBook.zones(db))
    }

    /// The stored zones' circles, or none when `keepPrivate` (the owner asked for the whole route).
    package static func load(_ db: Database, keepPrivate: Bool) throws -> PrivacyZones {
        keepPrivate ? .none : try load(db)
    }

    package var isEmpty: Bool { circles.isEmpty }

    /// True when `coordinate` lies in a zone.
    package func hides(_ coordinate: Coordinate) -> Bool {
        circles.contains { $0.contains(coordinate) }
    }

    /// `coordinates` (a path, in order) cut into the pieces outside every zone: a path through a zone becomes two
    /// pieces, one that starts in a zone loses its start. Pieces are never joined across a zone.
    package func visiblePieces(_ coordinates: [Coordinate]) -> [[Coordinate]] {
        var pieces: [[Coordinate]] = [[]]
        for coordinate in coordinates {
            if hides(coordinate) {
                if !(pieces.last?.isEmpty ?? true) { pieces.append([]) }
            } else {
                pieces[pieces.count - 1].append(coordinate)
            }
        }
        return pieces.filter { !$0.isEmpty }
    }

    /// What the zones cut from a run's points (accepted or not; a point without a position is never cut).
    package func cut(_ points: [TrackPoint]) -> PrivacyCut {
        PrivacyCut(points: points, hidden: Set(points.filter { $0.coordinate.map(hides) ?? false }.map(\.sequence)))
    }
}
