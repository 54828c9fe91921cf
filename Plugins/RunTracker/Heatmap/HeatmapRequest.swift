import Foundation
import GRDB
import MeridianCore
import MeridianStore

/// What a heatmap shows (the runs of an activity and a period, every saved run by default) and how wide it is, as the
/// command, the API and the page give it; and the heatmap made from them.
package struct HeatmapRequest: Sendable, Equatable {
    package var filter: RunFilter
    package var width: Int

    package static let defaultWidth = 800
    package static let widths = 320...4000

    /// Reads the texts of `--activity`/`activity`, `--from`, `--to` (bare dates are days in `timeZone`, `to` included)
    /// and `--width`; `prefix` is how the caller names them (`--` or nothing), for the messages.
    package init(
        activity: String?, from: String?, to: String?, width: String?, timeZone: TimeZone, prefix: String
    ) throws(RunHistoryError) {
        filter = RunFilter(
            from: try from.map { text throws(RunHistoryError) in
                try RunListQuery.parseBound(text, field: prefix + "from", isUpperBound: false, timeZone: timeZone)
            },
            to: try to.map { text throws(RunHistoryError) in
                try RunListQuery.parseBound(text, field: prefix + "to", isUpperBound: true, timeZone: timeZone)
            },
            activity: try activity.map { text throws(RunHistoryError) in
                try RunFilter.parseActivity(text, field: prefix + "activity")
            })
        if let from = filter.from, let to = filter.to, to <= from {
            throw .invalid(field: prefix + "to", message: "must be after \(prefix)from")
        }
        guard let width else {
            self.width = Self.defaultWidth
            return
        }
        guard let pixels = Int(width), Self.widths.contains(pixels) else {
            throw .invalid(field: prefix + "width", message: "'\(width)' is not a width of 320...4000 pixels")
        }
        self.width = pixels
    }

    /// The heatmap of the selected runs in `store` near the busiest place (`HeatmapFocus`), and how many selected runs
    /// start elsewhere and are left out.
    package func heatmap(in store: Store) async throws -> (raster: HeatRaster, elsewhere: Int) {
        let (filter, width) = (filter, width)
        let runs = try await store.database.read { db in try HeatmapSource.runs(filter: filter, in: db) }
        let (shown, elsewhere) = HeatmapFocus.busiest(runs)
        return (HeatRaster(runs: shown, width: width), elsewhere)
    }

    /// "Heatmap of 212 runs (run), from 2024-05-01, to 2024-05-31 (3 more elsewhere)": the SVG's title.
    package func caption(runs: Int, elsewhere: Int, timeZone: TimeZone) -> String {
        var caption = "Heatmap of \(runs == 1 ? "1 run" : "\(runs) runs")"
        if let activity = filter.activity { caption += " (\(activity.rawValue))" }
        if let from = filter.from { caption += ", from \(LocalTime.day(from, in: timeZone))" }
        if let to = filter.to { caption += ", to \(LocalTime.day(to.addingTimeInterval(-1), in: timeZone))" }
        if elsewhere > 0 { caption += " (\(elsewhere) more elsewhere, over 50 km away)" }
        return caption
    }
}
