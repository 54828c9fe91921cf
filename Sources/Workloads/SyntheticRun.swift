import ActivityFiles
import Foundation
import MeridianCore
import RunTracker

/// Deterministic, realistic-looking recordings for benchmarks, demos and tests: 1 Hz fixes along a wandering
/// route with a varying pace and the receiver's speed, rolling hills, mostly good accuracy with an occasional
/// poor fix, and optional pauses. Store its `recording` with `RunStore.importRun`, which tracks it like any recording.
package struct SyntheticRun: Sendable {
    package var id: String
    package var name: String
    package var activity: Activity
    package var startedAt: Date
    /// The recording, in time order.
    package var fixes: [Fix]
    /// When the recording was paused (the device's timer stopped).
    package var pauses: [DateInterval]

    /// The fixes and pauses as a recording to import.
    package var recording: RecordedActivity {
        RecordedActivity(format: .nmea, startTime: startedAt, samples: fixes.map(RecordedSample.init), pauses: pauses)
    }

    /// Generates `duration` seconds of fixes at 1 Hz starting at `startedAt` near `origin`.
    /// `pauses` are (offset, length) pairs in seconds during which the device is paused and records nothing (as a
    /// paused watch): the runner stands still, and the pause starts a new segment. Every 397th fix has 65 m accuracy.
    /// The same `seed` always gives the same recording.
    package init(
        id: String, name: String, activity: Activity = .run, startedAt: Date, origin: Coordinate,
        duration: Int, paceSecondsPerKilometre: Double = 330, pauses: [(offset: Int, length: Int)] = [],
        seed: UInt64 = 1
    ) {
        self.id = id
        self.name = name
        self.activity = activity
        self.startedAt = startedAt
        var random = SeededRandom(seed: seed)
        let plane = LocalPlane(origin: origin)
        let metresPerDegreeLatitude = plane.project(Coordinate.offset(origin, latitude: 1)).y
        let metresPerDegreeLongitude = max(1, plane.project(Coordinate.offset(origin, longitude: 1)).x)
        var east = 0.0, north = 0.0
        var heading = Double.random(in: 0..<(2 * .pi), using: &random)
        var fixes: [Fix] = []
        fixes.reserveCapacity(duration + 1)
        let baseSpeed = 1000 / paceSecondsPerKilometre
        for second in 0...duration {
            let paused = pauses.contains { second >= $0.offset && second < $0.offset + $0.length }
            guard !paused else { continue }
            var speed = 0.0
            if second > 0 {
                let wave = 0.12 * sin(Double(second) / 240 * .pi)
                speed = baseSpeed * (1 + wave + Double.random(in: -0.05..<0.05, using: &random))
                heading += Double.random(in: -0.08..<0.08, using: &random)
                east += speed * cos(heading)
                north += speed * sin(heading)
            }
            let accuracy = second % 397 == 200 ? 65 : 3 + Double.random(in: 0..<5, using: &random)
            let latitude = origin.latitude + north / metresPerDegreeLatitude
            let longitude = origin.longitude + east / metresPerDegreeLongitude
            let coordinate = try? Coordinate(
                latitude: min(90, max(-90, latitude)), longitude: Geodesic.normalizedLongitude(longitude))
            fixes.append(
                Fix(
                    time: startedAt.addingTimeInterval(Double(second)), coordinate: coordinate,
                    altitudeMSL: 120 + 25 * sin(Double(second) / 600 * .pi) + north * 0.002, speed: speed,
                    horizontalAccuracy: accuracy, mode: .threeD, providerID: "synthetic"))
        }
        self.fixes = fixes
        self.pauses = pauses.map {
            DateInterval(start: startedAt.addingTimeInterval(Double($0.offset)), duration: Double($0.length))
        }
    }
}

extension Coordinate {
    /// `base` moved by whole degrees, clamped into range (for local scale factors only).
    static func offset(_ base: Coordinate, latitude: Double = 0, longitude: Double = 0) -> Coordinate {
        let lat = base.latitude + (base.latitude + latitude > 90 ? -latitude : latitude)
        return (try? Coordinate(latitude: lat, longitude: Geodesic.normalizedLongitude(base.longitude + longitude)))
            ?? base
    }
}
