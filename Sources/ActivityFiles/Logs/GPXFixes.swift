import Foundation
import MeridianCore

/// GPX as a stream of fixes, for replaying: each sample of `GPXReader` becomes a fix. Bad points and malformed
/// XML are reported with their line; the points before malformed XML are kept.
enum GPXFixes {
    struct Result {
        var fixes: [Fix]
        var counters: [String: Int]
    }

    static func read(_ data: Data, file: String, providerID: String, onError: (TrackReadError) -> Void) -> Result {
        let (activity, xmlError) = GPXReader.read(data, file: file)
        for warning in activity.warnings + [xmlError].compactMap({ $0 }) {
            onError(TrackReadError(file: warning.file, line: warning.line, message: warning.message))
        }
        var counters = [
            "points_without_time": 0, "invalid_points": 0, "invalid_values": 0, "xml_errors": xmlError == nil ? 0 : 1
        ]
        counters.merge(activity.skipped, uniquingKeysWith: +)
        counters["points"] =
            activity.samples.count + counters["points_without_time", default: 0]
            + counters["invalid_points", default: 0]
        return Result(fixes: activity.samples.map { $0.fix(providerID: providerID) }, counters: counters)
    }
}
