import ActivityFiles
import Foundation
import MeridianCore

/// Replays GPX through `ActivityFiles.GPXReader`, Meridian's one GPX parser: each sample
/// becomes a fix (`ele` as altitude above mean sea level; mode from `fix`, else 3D with an
/// elevation and 2D without). Bad points and malformed XML are reported with their line;
/// the points before malformed XML are kept.
enum GPXReader {
    struct Result {
        var fixes: [Fix]
        var counters: [String: Int]
    }

    static func read(_ data: Data, file: String, providerID: String, onError: (TrackReadError) -> Void) -> Result {
        let (activity, xmlError) = ActivityFiles.GPXReader.read(data, file: file)
        for warning in activity.warnings + [xmlError].compactMap({ $0 }) {
            onError(TrackReadError(file: warning.file, line: warning.line, message: warning.message))
        }
        var counters = ["points_without_time": 0, "invalid_points": 0]
        counters.merge(activity.skipped, uniquingKeysWith: +)
        counters["points"] = activity.samples.count + counters["points_without_time", default: 0] + counters["invalid_points", default: 0]
        if xmlError != nil { counters["xml_errors"] = 1 }
        let fixes = activity.samples.map { sample in
            var mode: FixMode = sample.altitude != nil ? .threeD : .twoD
            var quality: FixQuality?
            switch sample.fix {
            case .none?: mode = .noFix
            case .twoD?: mode = .twoD
            case .threeD?: mode = .threeD
            case .dgps?: quality = .dgps
            case .pps?: quality = .pps
            case nil: break
            }
            return Fix(time: sample.time, coordinate: sample.coordinate, altitudeMSL: sample.altitude,
                       speed: sample.speed, course: sample.course, mode: mode, quality: quality,
                       satellitesUsed: sample.satellites, providerID: providerID)
        }
        return Result(fixes: fixes, counters: counters)
    }
}
