import Foundation
import MeridianCore

/// Everything the run detail shows beyond the summary: splits, profile, route and data quality.
package struct RunAnalysis: Sendable, Equatable, Codable {
    /// Kilometre and mile splits.
    package var splits: [SplitTable]
    package var profile: Profile
    package var route: RouteAnalysis
    package var quality: DataQuality
    /// The run's best effort per record kept for its activity (`RecordDistance.kept(for:)`).
    package var bestEfforts: [BestEffort]
    /// Time in the five heart-rate zones; `nil` without heart rate.
    @NullWhenAbsent package var heartRateZones: HeartRateZones?

    /// Default maximum number of points of the simplified route.
    package static let defaultMaxPoints = 500

    /// Analyses a run's points; heart-rate zones are taken from `maxHeartRate` (beats per minute). The route leaves
    /// out what `privacy` hides; every figure is the whole route's.
    package init(
        points: [TrackPoint], start: Date, activity: Activity, maxPoints: Int = defaultMaxPoints,
        maxHeartRate: Double = TrainingSettings().maxHeartRate, privacy: PrivacyZones = .none
    ) {
        let progress = RunProgress(points: points, start: start)
        let heartRate = HeartRateSeries(points: points, start: start)
        splits = progress.standardSplits.map { table in
            var table = table
            for index in table.splits.indices {
                let split = table.splits[index]
                table.splits[index].averageHeartRate = heartRate.average(
                    from: split.startOffset,
                    to: split.startOffset + split.elapsedTime)
            }
            return table
        }
        heartRateZones = HeartRateZones(series: heartRate, maxHeartRate: maxHeartRate)
        profile = Profile(points: points)
        route = RouteAnalysis(
            segments: Self.segments(of: privacy.cut(points).visible(points, keepDistances: true)),
            distance: progress.totalDistance, maxPoints: maxPoints)
        quality = DataQuality(points: points, start: start)
        bestEfforts = progress.bestEfforts(for: activity)
    }

    /// The accepted coordinates, one list per segment.
    static func segments(of points: [TrackPoint]) -> [[Coordinate]] {
        var segments: [[Coordinate]] = []
        var current: Int?
        for point in points where point.isAccepted {
            guard let coordinate = point.coordinate else { continue }
            if point.segment != current {
                segments.append([])
                current = point.segment
            }
            segments[segments.count - 1].append(coordinate)
        }
        return segments
    }
}
