import ActivityFiles
import Foundation
import MeridianCore

/// The file formats a run can be exported to.
package enum ExportFormat: String, Sendable, CaseIterable, ConfigEnum {
    case gpx, tcx, geojson, fit

    /// The HTTP content type.
    package var contentType: String {
        switch self {
        case .gpx: return "application/gpx+xml"
        case .tcx: return "application/vnd.garmin.tcx+xml"
        case .geojson: return "application/geo+json"
        case .fit: return "application/vnd.ant.fit"
        }
    }

    /// The file name extension.
    package var fileExtension: String { rawValue }

    /// The run in this format; TCX and FIT with `laps` (the device's `deviceLaps` when it has them, else one per
    /// kilometre, unless told). `privacy` cuts what its zones hide; a run that starts or ends in a zone is exported
    /// as its visible stretch, with that stretch's times and totals (`PrivacyTrim`); otherwise totals, laps and
    /// splits stay the whole route's. `relativeTime` starts the run at `RelativeTime.epoch`.
    package func file(
        run: RunSummary, points: [TrackPoint], laps: TCXExport.Laps = .device, deviceLaps: [DeviceLap] = [],
        privacy: PrivacyZones = .none, relativeTime: Bool = false
    ) -> Data {
        var (run, points, deviceLaps, cut) = PrivacyTrim.visibleStretch(
            run: run, points: points, laps: deviceLaps, cut: privacy.cut(points))
        if relativeTime { (run, points, deviceLaps) = RelativeTime.shift(run: run, points: points, laps: deviceLaps) }
        switch self {
        case .gpx: return Data(GPXExport.document(run: run, points: cut.visible(points)).utf8)
        case .tcx:
            return Data(
                TCXExport.document(run: run, points: points, laps: laps, deviceLaps: deviceLaps, cut: cut).utf8)
        case .geojson: return Data(GeoJSONExport.document(run: run, points: cut.visible(points)).utf8)
        case .fit: return Data(FITExport.file(run: run, points: points, laps: laps, deviceLaps: deviceLaps, cut: cut))
        }
    }
}

/// The accepted points of a run grouped by segment (pauses and signal gaps end a segment).
struct SegmentedTrack {
    var segments: [[TrackPoint]]

    init(_ points: [TrackPoint]) {
        var segments: [[TrackPoint]] = []
        var current: Int?
        for point in RunProgress.usable(points) {
            if point.segment != current {
                segments.append([])
                current = point.segment
            }
            segments[segments.count - 1].append(point)
        }
        self.segments = segments
    }
}

/// Fixed-point numbers for export files (never exponents, always `.`).
enum ExportNumber {
    /// Degrees with 9 decimals (0.1 mm), so a re-import measures the same distance.
    static func degrees(_ value: Double) -> String { NumberText.fixed(value, decimals: 9) }
    /// Longitude for XML schemas that exclude +180 (the same meridian as -180).
    static func longitude(_ value: Double) -> String { degrees(value >= 180 ? -180 : value) }
    static func metres(_ value: Double) -> String { NumberText.fixed(value, decimals: 2) }
    static func speed(_ value: Double) -> String { NumberText.fixed(value, decimals: 3) }
    /// Whole beats, strides or revolutions per minute: the schemas' unsigned byte (0…254 for cadence).
    static func perMinute(_ value: Double) -> String { String(Int(min(max(value, 0), 254).rounded())) }
    /// Whole watts.
    static func watts(_ value: Double) -> String { String(Int(min(max(value, 0), 65_535).rounded())) }
}
