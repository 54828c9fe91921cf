import Foundation
import MeridianCore

/// Deterministic, realistic-looking runs for benchmarks, demos and tests: 1 Hz fixes along a wandering
/// route with a varying pace, rolling hills, mostly good accuracy, a few rejected fixes and optional pauses.
public struct SyntheticRun: Sendable {
    public var id: String
    public var name: String
    public var activity: Activity
    public var startedAt: Date
    public var points: [TrackPoint]

    /// Generates `duration` seconds of fixes at 1 Hz starting at `start` near `origin`.
    /// `pauses` are (offset, length) pairs in seconds: fixes inside them are rejected as `paused` and
    /// each pause starts a new segment. The same `seed` always gives the same run.
    public init(id: String, name: String, activity: Activity = .run, startedAt: Date, origin: Coordinate,
                duration: Int, paceSecondsPerKilometre: Double = 330, pauses: [(offset: Int, length: Int)] = [],
                seed: UInt64 = 1) {
        self.id = id
        self.name = name
        self.activity = activity
        self.startedAt = startedAt
        var random = SplitMix64(seed: seed)
        let plane = LocalPlane(origin: origin)
        let metresPerDegreeLatitude = plane.project(Coordinate.offset(origin, latitude: 1)).y
        let metresPerDegreeLongitude = max(1, plane.project(Coordinate.offset(origin, longitude: 1)).x)
        var east = 0.0, north = 0.0
        var heading = random.next(in: 0..<(2 * .pi))
        var segment = 0
        var points: [TrackPoint] = []
        points.reserveCapacity(duration + 1)
        let baseSpeed = 1000 / paceSecondsPerKilometre
        for second in 0...duration {
            let paused = pauses.contains { second >= $0.offset && second < $0.offset + $0.length }
            if pauses.contains(where: { second == $0.offset + $0.length }) { segment += 1 }
            if !paused && second > 0 {
                let wave = 0.12 * sin(Double(second) / 240 * .pi)
                let speed = baseSpeed * (1 + wave + random.next(in: -0.05..<0.05))
                heading += random.next(in: -0.08..<0.08)
                east += speed * cos(heading)
                north += speed * sin(heading)
            }
            let noisy = second % 397 == 200
            let accuracy = noisy ? 65 : 3 + random.next(in: 0..<5)
            let latitude = origin.latitude + north / metresPerDegreeLatitude
            let longitude = origin.longitude + east / metresPerDegreeLongitude
            let coordinate = try? Coordinate(latitude: min(90, max(-90, latitude)), longitude: Geodesic.normalizedLongitude(longitude))
            let rejection: PointRejection? = paused ? .paused : (noisy ? .poorAccuracy : nil)
            points.append(TrackPoint(sequence: second, time: startedAt.addingTimeInterval(Double(second)),
                                     coordinate: coordinate, altitude: 120 + 25 * sin(Double(second) / 600 * .pi) + north * 0.002,
                                     speed: paused ? 0 : baseSpeed, horizontalAccuracy: accuracy, segment: segment,
                                     rejection: rejection))
        }
        self.points = points
    }
}

/// A small, fast, seedable generator (SplitMix64), so generated runs are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(in range: Range<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}

extension Coordinate {
    /// `base` moved by whole degrees, clamped into range (for local scale factors only).
    static func offset(_ base: Coordinate, latitude: Double = 0, longitude: Double = 0) -> Coordinate {
        let lat = base.latitude + (base.latitude + latitude > 90 ? -latitude : latitude)
        return (try? Coordinate(latitude: lat, longitude: Geodesic.normalizedLongitude(base.longitude + longitude))) ?? base
    }
}
