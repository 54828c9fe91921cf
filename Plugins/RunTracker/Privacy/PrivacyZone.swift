import Foundation
import MeridianCore

/// A privacy zone as the user gave it: a circle around a place (home, work) whose points no export, picture or map
/// shows, and the secret that hides where its centre really is.
package struct PrivacyZone: Sendable, Equatable, Codable {
    /// Where a zone was defined.
    package enum Source: String, Sendable, Codable {
        /// `meridian privacy add`.
        case command
        /// `privacy.zones` of the run tracker's options.
        case configuration
    }

    /// Unique name (`home`, `work`).
    package var name: String
    /// The real centre (the door); never shown outside the owner's own commands.
    package var centre: Coordinate
    /// The real radius, metres.
    package var radius: Double
    package var source: Source
    /// The secret offset and jitter, drawn once when the zone is stored.
    package var secret: ZoneSecret

    /// Radii a zone may have, metres: under 100 m a zone hides too little of a path to hide the door; above 10 km
    /// it would hide whole runs.
    package static let radii: ClosedRange<Double> = 100...10_000

    package init(name: String, centre: Coordinate, radius: Double, source: Source, secret: ZoneSecret) {
        self.name = name
        self.centre = centre
        self.radius = radius
        self.source = source
        self.secret = secret
    }

    /// The circle that is actually cut: centred `secret.offset` metres away from the real centre, with a radius that
    /// reaches past the real circle on every side (`radius + offset + jitter`), so the door is always hidden and the
    /// centre of what is cut is not the door.
    package var hidden: HiddenCircle {
        let bearing = atan2(secret.offsetEast, secret.offsetNorth) * 180 / .pi
        let centre =
            (try? Geodesic.wgs84.direct(from: centre, bearing: bearing, distance: secret.offsetDistance).destination)
            ?? centre
        return HiddenCircle(centre: centre, radius: radius + secret.offsetDistance + secret.jitter)
    }
}

/// A zone's secret: how far, and which way, the cut circle's centre lies from the real one, and how much more than
/// needed its radius reaches. Drawn once from the system's cryptographic random source (`SystemRandomNumberGenerator`:
/// `getrandom(2)` on Linux) and stored, so every export of every run cuts the same circle and averaging many exports
/// converges on the cut circle's centre, not on the door.
package struct ZoneSecret: Sendable, Equatable, Codable {
    /// Offset of the cut circle's centre towards north and east, metres.
    package var offsetNorth: Double
    package var offsetEast: Double
    /// Metres added to the radius beyond what covers the real circle.
    package var jitter: Double

    package init(offsetNorth: Double, offsetEast: Double, jitter: Double) {
        self.offsetNorth = offsetNorth
        self.offsetEast = offsetEast
        self.jitter = jitter
    }

    /// The offset's length, metres.
    package var offsetDistance: Double { (offsetNorth * offsetNorth + offsetEast * offsetEast).squareRoot() }

    /// The share of the radius the offset's length is drawn from (uniformly): the centre of what is cut is at least
    /// 0.8 × radius from the door (240 m for a 300 m zone). Runs leaving the door in every direction cross the cut
    /// circle at points whose centre lies half the offset from the door, so that estimate misses by 0.4 × radius.
    package static let offsetShare: ClosedRange<Double> = 0.8...1.0
    /// The share of the radius the jitter is drawn from (uniformly).
    package static let jitterShare: ClosedRange<Double> = 0.1...0.3

    /// A new secret for a zone of `radius` metres: a direction drawn uniformly, a length within `offsetShare` and a
    /// jitter within `jitterShare` of the radius.
    package static func draw<Generator: RandomNumberGenerator>(radius: Double, using generator: inout Generator)
        -> ZoneSecret
    {
        let direction = Double.random(in: 0..<(2 * .pi), using: &generator)
        let length = radius * Double.random(in: offsetShare, using: &generator)
        return ZoneSecret(
            offsetNorth: length * cos(direction), offsetEast: length * sin(direction),
            jitter: radius * Double.random(in: jitterShare, using: &generator))
    }

    /// A new secret from the system's cryptographic random source.
    package static func draw(radius: Double) -> ZoneSecret {
        var generator = SystemRandomNumberGenerator()
        return draw(radius: radius, using: &generator)
    }
}

/// The circle a zone cuts, metres on a local plane around its centre (exact to millimetres at these sizes).
package struct HiddenCircle: Sendable {
    package let centre: Coordinate
    package let radius: Double
    private let plane: LocalPlane

    package init(centre: Coordinate, radius: Double) {
        self.centre = centre
        self.radius = radius
        plane = LocalPlane(origin: centre)
    }

    package func contains(_ coordinate: Coordinate) -> Bool {
        let (x, y) = plane.project(coordinate)
        return x * x + y * y <= radius * radius
    }
}
