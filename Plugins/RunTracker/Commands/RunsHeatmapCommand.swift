import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs heatmap [-o heat.svg|heat.png] [--activity A] [--from DATE] [--to DATE] [--width 800]`.
struct RunsHeatmapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heatmap",
        abstract: "Draw every saved route (or an activity's, in a period) on one map, brighter where run more often.")
    @OptionGroup var store: RunsStoreOptions
    @Option(
        name: [.short, .long], help: "File to write, ending in .svg or .png (default: SVG on standard output).")
    var output: String?
    @Option(name: .long, help: "Only runs of this activity (run, walk, hike, ride, other).") var activity: String?
    @Option(name: .long, help: "Runs started on or after this day or time.") var from: String?
    @Option(name: .long, help: "Runs started up to this day (included) or before this time.") var to: String?
    @Option(name: .long, help: "Picture width in pixels (320...4000).") var width: String?

    enum Picture: String { case svg, png }

    func run() async throws {
        try await reportingFailures {
            let picture = try OutputFormat.choose(
                given: nil, output: output, extensions: ["svg": Picture.svg, "png": .png], fallback: .svg)
            let (history, style) = try store.openStyled()
            let request = try await usageErrors {
                try HeatmapRequest(
                    activity: activity, from: from, to: to, width: width, timeZone: style.timeZone, prefix: "--")
            }
            let (raster, elsewhere) = try await request.heatmap(in: history.store)
            let renderer = HeatmapRenderer(raster: raster, units: style.units)
            switch picture {
            case .svg:
                let caption = request.caption(runs: raster.runCount, elsewhere: elsewhere, timeZone: style.timeZone)
                try write(Data(try renderer.svg(caption: caption).utf8), to: output)
            case .png:
                try write(try renderer.png(), to: output)
            }
            if output != nil {
                print(
                    raster.runCount == 0
                        ? "no saved run with a route in this selection: the picture is empty"
                        : "drew \(raster.runCount) runs, \(raster.width)×\(raster.height) pixels, the busiest pixel crossed by \(raster.maxCount)"
                            + (elsewhere > 0
                                ? "; \(elsewhere) more start over 50 km from the busiest place and are left out (choose them with --from, --to or --activity)"
                                : "")
                )
            }
        }
    }
}
