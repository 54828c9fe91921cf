import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian runs routes [ID] [--activity A] [--min-runs N] [--rebuild] [--json]`.
struct RunsRoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Routes: runs that followed the same path in the same direction, with the best and latest time.",
        discussion: """
            Two runs are on one route when their starts and finishes are within 100 m and their paths within \
            route_match_m (default 50 m, discrete Fréchet distance). With an ID, the route's runs ranked by elapsed \
            time. --rebuild regroups every run (after route_match_m changed); route ids change.
            """)
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "A route id: show its runs ranked.") var id: String?
    @Option(name: .long, help: "Only routes of this activity: run, walk, hike, ride or other.") var activity: String?
    @Option(name: .long, help: "Only routes with at least this many runs.") var minRuns = 2
    @Flag(name: .long, help: "Regroup every run into routes first.") var rebuild = false

    func run() async throws {
        try await reportingFailures {
            let (opened, settings) = try store.openProgress()
            guard minRuns >= 1 else { throw CommandFailure("--min-runs must be at least 1, got \(minRuns)", code: 2) }
            let chosen = try await usageErrors {
                try activity.map { text throws(RunHistoryError) in
                    try RunFilter.parseActivity(text, field: "--activity")
                }
            }
            if rebuild {
                let count = try await opened.database.write { db in
                    try RouteBook.rebuild(matcher: settings.matcher, in: db)
                }
                if !store.json { print("regrouped every run into \(count) route(s)") }
            }
            if let id {
                let route = try await usageErrors {
                    guard let number = Int64(id) else { throw ProgressError.routeNotFound(id: id) }
                    return try await opened.database.read { db in try RouteBook.route(id: number, in: db) }
                }
                if store.json { return try store.printJSON(route) }
                print(Self.line(route, settings: settings))
                for run in route.runs {
                    print(
                        "  \(RunText.pad("#\(run.rank)", 5)) \(RunText.pad(TimeFormat.duration(seconds: run.elapsedTime), 8))  "
                            + "\(LocalTime.day(run.startedAt, in: settings.timeZone))  \(RunText.pad(run.name, 28))  \(run.runID)"
                    )
                }
                return
            }
            let routes = try await opened.database.read { [minRuns] db in
                try RouteBook.list(minimumRuns: minRuns, activity: chosen, in: db)
            }
            if store.json { return try store.printJSON(RouteList(routes: routes)) }
            if routes.isEmpty { print("No routes with \(minRuns) or more runs yet.") }
            for route in routes { print(Self.line(route, settings: settings)) }
        }
    }

    static func line(_ route: Route, settings: ProgressSettings) -> String {
        "route \(RunText.pad(String(route.id), 5)) \(RunText.pad(route.activity.rawValue, 5)) \(RunText.pad(route.name, 28)) "
            + "\(RunText.pad(DistanceFormat.string(metres: route.distance, units: settings.units), 8)) \(route.runCount) runs  "
            + "best \(TimeFormat.duration(seconds: route.best.elapsedTime)) (\(LocalTime.day(route.best.startedAt, in: settings.timeZone)))  "
            + "latest \(TimeFormat.duration(seconds: route.latest.elapsedTime)) (\(LocalTime.day(route.latest.startedAt, in: settings.timeZone)))"
    }
}
