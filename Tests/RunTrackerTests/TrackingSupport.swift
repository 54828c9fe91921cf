import Foundation
import MeridianCore

@testable import RunTracker

/// Builds synthetic fixes from positions given in metres east/north of an origin.
struct SyntheticTrack {
    static let origin = try! Coordinate(latitude: 48.137, longitude: 11.575)
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// The coordinate `east`/`north` metres from the origin (exact geodesic offset).
    static func coordinate(east: Double, north: Double) -> Coordinate {
        let distance = (east * east + north * north).squareRoot()
        guard distance > 0 else { return origin }
        let bearing = atan2(east, north) * 180 / .pi
        return try! Geodesic.wgs84.direct(from: origin, bearing: bearing, distance: distance).destination
    }

    static func fix(
        second: Double, east: Double, north: Double, speed: Double? = nil, accuracy: Double? = 5,
        altitude: Double? = nil
    ) -> Fix {
        Fix(
            time: start.addingTimeInterval(second), coordinate: coordinate(east: east, north: north),
            altitudeMSL: altitude, speed: speed, horizontalAccuracy: accuracy, mode: .threeD, providerID: "test")
    }

    static func noFix(second: Double) -> Fix {
        Fix(time: start.addingTimeInterval(second), coordinate: nil, mode: .noFix, providerID: "test")
    }

    /// Position on a 400 m athletics oval (lane 1: straights of 84.39 m, bends of radius 36.80 m) at `s` metres.
    static func oval(at s: Double) -> (east: Double, north: Double) {
        let straight = 84.39
        let radius = (400 - 2 * straight) / (2 * .pi)
        let bend = Double.pi * radius
        var s = s.truncatingRemainder(dividingBy: 400)
        if s < straight { return (s, -radius) }
        s -= straight
        if s < bend {
            let angle = -Double.pi / 2 + s / radius
            return (straight + radius * cos(angle), radius * sin(angle))
        }
        s -= bend
        if s < straight { return (straight - s, radius) }
        s -= straight
        let angle = Double.pi / 2 + s / radius
        return (radius * cos(angle), radius * sin(angle))
    }
}

/// Receiver-like position noise: a slowly wandering bias (first-order Gauss–Markov) plus white jitter.
struct GPSNoise {
    var random: SeededRandom
    var correlation = 0.99
    var biasSigma = 3.0
    var whiteSigma = 0.5
    private var east = 0.0
    private var north = 0.0

    init(seed: UInt64, correlation: Double = 0.99, biasSigma: Double = 3.0, whiteSigma: Double = 0.5) {
        random = SeededRandom(seed: seed)
        self.correlation = correlation
        self.biasSigma = biasSigma
        self.whiteSigma = whiteSigma
        east = random.gaussian(sigma: biasSigma)
        north = random.gaussian(sigma: biasSigma)
    }

    mutating func next() -> (east: Double, north: Double) {
        let innovation = biasSigma * (1 - correlation * correlation).squareRoot()
        east = correlation * east + random.gaussian(sigma: innovation)
        north = correlation * north + random.gaussian(sigma: innovation)
        return (east + random.gaussian(sigma: whiteSigma), north + random.gaussian(sigma: whiteSigma))
    }
}

extension RunEngine {
    /// A run started at the synthetic start time.
    static func test(_ activity: Activity = .run, settings: TrackerSettings = TrackerSettings()) -> RunEngine {
        RunEngine(
            runID: "test-run", name: "Test", activity: activity, startedAt: SyntheticTrack.start, settings: settings)
    }

    mutating func feedAll(_ fixes: [Fix]) -> [TrackPoint] {
        fixes.map { feed($0) }
    }
}
