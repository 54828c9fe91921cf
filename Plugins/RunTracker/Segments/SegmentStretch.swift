import Foundation
import MeridianCore

/// The stretch of a saved run a new segment is made of: every trustworthy fix between the two moments the request's
/// bounds name, not only the run's route points (the tracker spaces those 18 times the receiver's noise apart, over
/// 50 m at 3 m of jitter, and a path through them cuts corners by more than a run may stray from a segment), with the
/// jitter averaged out (a path through every raw fix zigzags and measures twice its length at 1 Hz).
enum SegmentStretch {
    /// How closely a segment's path follows the run it was taken from, metres (Douglas–Peucker tolerance).
    static let tolerance = 2.0
    /// How long either side of each fix the fixes are averaged, seconds: ±5 fixes of a 1 Hz recording, which takes 3 m
    /// of jitter to 0.9 m and moves the apex of a runner's right-angled corner by about 6 m; a watch's smart recording
    /// (a fix every 4–5 s) is averaged with a neighbour or none.
    static let smoothingTime = 5.0
    /// How far from each fix the fixes averaged with it may be, metres (a cyclist's ±5 s would cut corners).
    static let smoothingReach = 25.0
    /// How far a point given for a segment's start or end may be from the run's path, metres.
    static let pointReach = 50.0

    /// The run's fixes between the bounds, with the ends interpolated where the run was when its distance reached the
    /// requested kilometres (or at its fixes nearest the requested points), simplified to `tolerance`.
    static func path(of samples: TrackSamples, bounds: SegmentRequest.Bounds, runID: String) throws -> [Coordinate] {
        let coordinates = smoothed(samples.coordinates, times: samples.times)
        let route = samples.accepted.indices.filter { samples.accepted[$0] }
        let routeTimes = route.map { samples.times[$0] }, routeDistances = route.map { samples.distances[$0] }
        let total = routeDistances.last ?? 0
        let runLength = "run '\(runID)' (\(NumberText.fixed(total / 1000, decimals: 2)) km)"
        let from: Double, to: Double
        switch bounds {
        case .kilometres(let fromKm, let toKm):
            guard fromKm.isFinite, toKm.isFinite, fromKm >= 0 else {
                throw ProgressError.invalid(
                    field: "from", message: "must be a distance of at least 0 km, got \(fromKm)")
            }
            guard toKm > fromKm else {
                throw ProgressError.invalid(field: "to", message: "\(toKm) km must be beyond the start (\(fromKm) km)")
            }
            guard toKm * 1000 <= total + 0.5 else {
                throw ProgressError.invalid(field: "to", message: "\(toKm) km is beyond the end of \(runLength)")
            }
            func time(at distance: Double) -> Double {
                guard let (index, fraction) = locate(distance, in: routeDistances) else { return 0 }
                return fraction > 0
                    ? routeTimes[index] + fraction * (routeTimes[index + 1] - routeTimes[index]) : routeTimes[index]
            }
            (from, to) = (time(at: fromKm * 1000), time(at: min(toKm * 1000, total)))
        case .points(let fromPoint, let toPoint):
            let start = try nearest(to: fromPoint, in: coordinates, after: 0, field: "from", runLength: runLength)
            let end = try nearest(to: toPoint, in: coordinates, after: start + 1, field: "to", runLength: runLength)
            (from, to) = (samples.times[start], samples.times[end])
        }
        var path: [Coordinate] = []
        if let first = position(at: from, times: samples.times, coordinates: coordinates) { path.append(first) }
        for (coordinate, time) in zip(coordinates, samples.times) where time > from && time < to {
            path.append(coordinate)
        }
        if let last = position(at: to, times: samples.times, coordinates: coordinates) { path.append(last) }
        return Geodesic.wgs84.simplified(path, tolerance: tolerance)
    }

    /// Where the run was `time` seconds after its start: between the two fixes around it.
    private static func position(at time: Double, times: [Double], coordinates: [Coordinate]) -> Coordinate? {
        guard let (index, fraction) = locate(time, in: times) else { return nil }
        guard fraction > 0 else { return coordinates[index] }
        return FlatDistance.point(between: coordinates[index], and: coordinates[index + 1], fraction: fraction)
    }

    /// Each fix replaced by the mean of the fixes around it within `smoothingTime` seconds and `smoothingReach` metres
    /// (up to the first one beyond either on each side, so a signal gap or another pass of the place is never mixed in).
    static func smoothed(_ points: [Coordinate], times: [Double]) -> [Coordinate] {
        points.indices.map { index in
            let centre = points[index], time = times[index]
            func near(_ other: Int) -> Bool {
                abs(times[other] - time) <= smoothingTime
                    && FlatDistance.metres(points[other], centre) <= smoothingReach
            }
            var low = index, high = index
            while low > 0, near(low - 1) { low -= 1 }
            while high + 1 < points.count, near(high + 1) { high += 1 }
            guard high > low else { return centre }
            let near = points[low...high], count = Double(near.count)
            let latitude = near.reduce(0) { $0 + $1.latitude - centre.latitude } / count
            let longitude = near.reduce(0) { $0 + FlatDistance.longitudeDelta(centre, $1) } / count
            return Coordinate.clamped(latitude: centre.latitude + latitude, longitude: centre.longitude + longitude)
                ?? centre
        }
    }

    /// Where `value` falls in the non-decreasing `keys`: the index at or before it and the fraction of the way to the
    /// next (0 at a key, and at the ends beyond them); `nil` without keys.
    private static func locate(_ value: Double, in keys: [Double]) -> (index: Int, fraction: Double)? {
        guard let after = keys.firstIndex(where: { $0 >= value }) else {
            return keys.isEmpty ? nil : (keys.count - 1, 0)
        }
        guard after > 0, keys[after] > value else { return (after, 0) }
        return (after - 1, (value - keys[after - 1]) / (keys[after] - keys[after - 1]))
    }

    /// The index of the fix nearest `point` on the run's first pass within `pointReach` of it, from index `after` on;
    /// an error naming `field` when the run never comes that close.
    private static func nearest(
        to point: Coordinate, in coordinates: [Coordinate], after first: Int, field: String,
        runLength: String
    ) throws -> Int {
        let reach = NearnessTest(limit: pointReach)
        guard let pass = (first..<max(first, coordinates.count)).first(where: { reach.isNear(coordinates[$0], point) })
        else {
            let closest = (first..<max(first, coordinates.count)).map {
                Geodesic.wgs84.distance(coordinates[$0], point)
            }.min()
            let distance = closest.map { "is \(NumberText.fixed($0, decimals: 0)) m from" } ?? "comes after the end of"
            throw ProgressError.invalid(
                field: field,
                message:
                    "\(point) \(distance) the path of \(runLength) after the start; give a point within \(Int(pointReach)) m of the run"
            )
        }
        var end = pass
        while end + 1 < coordinates.count, reach.isNear(coordinates[end + 1], point) { end += 1 }
        return (pass...end).min {
            FlatDistance.metres(coordinates[$0], point) < FlatDistance.metres(coordinates[$1], point)
        } ?? pass
    }
}
