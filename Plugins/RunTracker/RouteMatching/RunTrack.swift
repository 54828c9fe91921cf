import Foundation
import MeridianCore

/// What route matching keeps of a saved run (table `run_tracks`): its path simplified with Douglas–Peucker to
/// `tolerance`, and the bounding box of that path.
package struct RunTrack: Sendable, Equatable {
    /// The simplified path; its first and last points are the run's first and last usable points.
    package let path: [Coordinate]
    package let box: TrackBox

    /// How far the simplified path may stray from the run's points, metres.
    package static let tolerance = 5.0

    /// The track of a run's route points; `nil` without two distinct positions.
    package init?(samples: TrackSamples) {
        let coordinates = samples.route
        guard let first = coordinates.first, coordinates.contains(where: { $0 != first }) else { return nil }
        self.init(path: Geodesic.wgs84.simplified(coordinates, tolerance: Self.tolerance))
    }

    init(path: [Coordinate]) {
        self.path = path
        box = TrackBox(path)
    }

    package var start: Coordinate { path[0] }
    package var finish: Coordinate { path[path.count - 1] }

    // MARK: Packed form

    /// Little-endian float64 pairs (latitude, longitude), the format of `run_tracks.path` and `segments.path`.
    package var packed: Data { Self.pack(path) }

    /// Reads `packed`; `nil` when it is not a whole number of valid pairs (at least two).
    package init?(packed data: Data) {
        guard let path = Self.unpack(data), path.count >= 2 else { return nil }
        self.init(path: path)
    }

    static func pack(_ coordinates: [Coordinate]) -> Data {
        PackedPairs.pack(count: coordinates.count) { (coordinates[$0].latitude, coordinates[$0].longitude) }
    }

    static func unpack(_ data: Data) -> [Coordinate]? {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(data.count / 16)
        let valid = PackedPairs.unpack(data) { latitude, longitude in
            guard let coordinate = try? Coordinate(latitude: latitude, longitude: longitude) else { return false }
            coordinates.append(coordinate)
            return true
        }
        return valid ? coordinates : nil
    }
}

/// A latitude/longitude box around a path, for prefiltering: a path can only be within `d` metres of another
/// if each box, grown by `d`, holds the other.
package struct TrackBox: Sendable, Equatable {
    package var minLatitude: Double
    package var maxLatitude: Double
    package var minLongitude: Double
    package var maxLongitude: Double

    package init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    init(_ coordinates: [Coordinate]) {
        self.init(
            minLatitude: coordinates.map(\.latitude).min() ?? 0, maxLatitude: coordinates.map(\.latitude).max() ?? 0,
            minLongitude: coordinates.map(\.longitude).min() ?? 0, maxLongitude: coordinates.map(\.longitude).max() ?? 0
        )
    }

    /// This box grown by `metres` on every side (generously: degrees from the smallest radii of curvature).
    /// Near the poles or across the antimeridian it spans every longitude.
    package func grown(by metres: Double) -> TrackBox {
        let latitudeMargin = metres / 110_574 * 1.001
        let extremeLatitude = max(abs(minLatitude), abs(maxLatitude)) + latitudeMargin
        var box = TrackBox(
            minLatitude: max(-90, minLatitude - latitudeMargin), maxLatitude: min(90, maxLatitude + latitudeMargin),
            minLongitude: -180, maxLongitude: 180)
        guard extremeLatitude < 89 else { return box }
        let longitudeMargin = metres / (111_319 * cos(extremeLatitude * .pi / 180)) * 1.001
        if minLongitude - longitudeMargin > -180 && maxLongitude + longitudeMargin < 180 {
            box.minLongitude = minLongitude - longitudeMargin
            box.maxLongitude = maxLongitude + longitudeMargin
        }
        return box
    }

    /// Whether `other` lies inside this box.
    package func contains(_ other: TrackBox) -> Bool {
        other.minLatitude >= minLatitude && other.maxLatitude <= maxLatitude
            && other.minLongitude >= minLongitude && other.maxLongitude <= maxLongitude
    }

    /// Whether the two boxes share any point.
    package func intersects(_ other: TrackBox) -> Bool {
        other.minLatitude <= maxLatitude && other.maxLatitude >= minLatitude
            && other.minLongitude <= maxLongitude && other.maxLongitude >= minLongitude
    }
}
