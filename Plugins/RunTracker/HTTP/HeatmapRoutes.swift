import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianStore

/// `GET /v1/heatmap.svg` and `GET /v1/heatmap.png`: every saved route (or an activity's and a period's) on one map,
/// brighter where run more often.
package enum HeatmapRoutes {
    package static func add(
        to group: RouterGroup<MeridianRequestContext>, store: Store, units: UnitSystem, timeZone: TimeZone
    ) {
        group.get("heatmap.svg") { request, _ in
            let svg = try await picture(request, store: store, units: units, timeZone: timeZone) { renderer, caption in
                Data(try renderer.svg(caption: caption).utf8)
            }
            return RunHistoryRoutes.document(svg, type: "image/svg+xml", filename: nil)
        }
        group.get("heatmap.png") { request, _ in
            let png = try await picture(request, store: store, units: units, timeZone: timeZone) { renderer, _ in
                try renderer.png()
            }
            return RunHistoryRoutes.document(png, type: "image/png", filename: nil, text: false)
        }
    }

    /// Reads `activity`, `from`, `to` and `width` and draws the heatmap with `draw`.
    static func picture(
        _ request: Request, store: Store, units: UnitSystem, timeZone: TimeZone,
        draw: (HeatmapRenderer, String) throws -> Data
    ) async throws -> Data {
        try request.allowQuery(["activity", "from", "to", "width"])
        let heatmap = try ProgressRoutes.mappedNow {
            try HeatmapRequest(
                activity: request.query("activity"), from: request.query("from"), to: request.query("to"),
                width: request.query("width"), timeZone: timeZone, prefix: "")
        }
        let (raster, elsewhere) = try await heatmap.heatmap(in: store)
        return try draw(
            HeatmapRenderer(raster: raster, units: units),
            heatmap.caption(runs: raster.runCount, elsewhere: elsewhere, timeZone: timeZone))
    }
}
