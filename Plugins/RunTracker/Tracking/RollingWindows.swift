import Foundation
import MeridianCore

/// A position with its time, as kept in the tracker's rolling windows.
struct TimedPosition: Sendable, Equatable, Codable {
    var time: Double
    var latitude: Double
    var longitude: Double

    init(time: Double, latitude: Double, longitude: Double) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
    }

    init(time: Double, coordinate: Coordinate) {
        self.time = time
        latitude = coordinate.latitude
        longitude = coordinate.longitude
    }

    var coordinate: Coordinate? { try? Coordinate(latitude: latitude, longitude: longitude) }

    /// The mean position of `positions` (longitudes unwrapped around the first), or `nil` when empty.
    static func centroid<C: Collection>(_ positions: C) -> Coordinate? where C.Element == TimedPosition {
        guard let first = positions.first else { return nil }
        var latitude = 0.0
        var longitude = 0.0
        for position in positions {
            latitude += position.latitude
            var delta = position.longitude - first.longitude
            if delta > 180 { delta -= 360 }
            if delta < -180 { delta += 360 }
            longitude += first.longitude + delta
        }
        let count = Double(positions.count)
        return try? Coordinate(latitude: latitude / count, longitude: Geodesic.normalizedLongitude(longitude / count))
    }
}

/// Speed derived from positions when the receiver reports none: the distance between the
/// centroids of the older and newer half of a window, divided by the time between them.
/// Averaging many fixes makes standing-still jitter cancel out.
struct DerivedSpeed: Sendable, Equatable, Codable {
    var positions: [TimedPosition] = []

    /// Adds a position. The last position before the window is kept too, so that after a gap in the fixes the
    /// speed spans the gap instead of starting again from nothing.
    mutating func add(_ position: TimedPosition, halfWindow: Double) {
        positions.append(position)
        let start = position.time - 2 * halfWindow
        if let firstInside = positions.firstIndex(where: { $0.time >= start }), firstInside > 1 {
            positions.removeFirst(firstInside - 1)
        }
    }

    /// The speed in m/s, or `nil` until the window spans at least one half.
    func speed(halfWindow: Double) -> Double? {
        guard let last = positions.last, let first = positions.first, last.time - first.time >= halfWindow else {
            return nil
        }
        let split = last.time - halfWindow
        // Positions are in time order: the newer half starts at the first one at or after `split`.
        let boundary = positions.firstIndex { $0.time >= split } ?? positions.endIndex
        let older = positions[..<boundary]
        let newer = positions[boundary...]
        guard !older.isEmpty, !newer.isEmpty,
            let from = TimedPosition.centroid(older), let to = TimedPosition.centroid(newer)
        else { return nil }
        let olderTime = older.reduce(0) { $0 + $1.time } / Double(older.count)
        let newerTime = newer.reduce(0) { $0 + $1.time } / Double(newer.count)
        guard newerTime > olderTime else { return nil }
        return Geodesic.wgs84.distance(from, to) / (newerTime - olderTime)
    }
}

/// Smoothed current speed: distance counted over the last `window` seconds divided by the time covered.
struct SpeedWindow: Sendable, Equatable, Codable {
    /// (time, total distance at that time) for every tracked fix of the current segment.
    var samples: [Sample] = []

    struct Sample: Sendable, Equatable, Codable {
        var time: Double
        var distance: Double
    }

    mutating func add(time: Double, distance: Double, window: Double) {
        samples.append(Sample(time: time, distance: distance))
        // Keep one sample at or before the window's start so the window is always fully covered.
        while samples.count > 2, samples[1].time <= time - window { samples.removeFirst() }
    }

    mutating func reset() { samples.removeAll() }

    /// The speed in m/s, or `nil` while less than `minimumSpan` seconds are covered.
    func speed(minimumSpan: Double = 5) -> Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= minimumSpan else {
            return nil
        }
        return (last.distance - first.distance) / (last.time - first.time)
    }
}

/// Elevation gain and loss from a rolling mean of the altitude with hysteresis:
/// a change counts only once the smoothed altitude moved `hysteresis` metres from the last counted level.
struct ElevationCounter: Sendable, Equatable, Codable {
    var recent: [Double] = []
    var reference: Double?
    var ascent: Double = 0
    var descent: Double = 0

    mutating func add(_ altitude: Double, points: Int, hysteresis: Double) {
        guard altitude.isFinite else { return }
        recent.append(altitude)
        if recent.count > max(1, points) { recent.removeFirst(recent.count - max(1, points)) }
        let smoothed = recent.reduce(0, +) / Double(recent.count)
        guard let level = reference else {
            reference = smoothed
            return
        }
        if smoothed - level >= hysteresis {
            ascent += smoothed - level
            reference = smoothed
        } else if level - smoothed >= hysteresis {
            descent += level - smoothed
            reference = smoothed
        }
    }
}
