import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianWeb

/// The run tracker's pages: the live run on the "now" page (`/now/run`), the history (`/runs`), one run
/// (`/runs/{id}`, with its edit, delete and restore forms and its route picture), the records (`/records`),
/// fitness (`/fitness`) and the heatmap (`/heatmap`, its picture `/heatmap.svg`); the goals on the now page.
extension RunTrackerPlugin: WebPages {
    package var webNavigation: [NavigationLink] {
        [
            NavigationLink("Runs", path: "/runs"), NavigationLink("Records", path: "/records"),
            NavigationLink("Fitness", path: "/fitness"), NavigationLink("Heatmap", path: "/heatmap")
        ]
    }

    package func addPages(to pages: RouterGroup<MeridianRequestContext>, site: WebSite) {
        let history = RunHistory(store: runStore.store, training: options.training)
        let pagesShowZones = options.privacy.pagesShowZones
        let live = LiveRunSection(controller: controller, history: history)
        pages.get("now/run") { _, _ in site.fragment(try await live.html(site: site)) }
        pages.get("runs") { request, _ in
            try await RunListPage(history: history, site: site).response(request)
        }
        pages.get("runs/{id}") { request, context in
            let id = try context.parameters.decoded("id")
            var page = RunDetailPage(history: history, site: site)
            page.showsZones = pagesShowZones
            return try await page.response(id: id, request: request)
        }
        pages.get("runs/{id}/route.svg") { request, context in
            let id = try context.parameters.decoded("id")
            let (run, points) = try await RunHistoryRoutes.mapped { try await history.track(id: id) }
            let privacy = try await history.privacyZones(keepPrivate: pagesShowZones)
            let svg = RouteRenderer(units: site.units).mapSVG(
                points: points, profile: Profile(points: points), activity: run.activity, privacy: privacy)
            return RunHistoryRoutes.document(svg, type: "image/svg+xml", filename: nil)
        }
        pages.post("runs/{id}/edit") { request, context in
            let id = try context.parameters.decoded("id")
            let form = try await FormData.read(request, limit: 64 << 10)
            try await RunHistoryRoutes.mapped {
                try await history.edit(
                    id: id, try RunEdit(fields: ["name": form["name"] ?? "", "notes": form["notes"] ?? ""]))
            }
            return site.redirect(to: "\(RunLinks.run(id))?saved=1")
        }
        pages.post("runs/{id}/delete") { _, context in
            let id = try context.parameters.decoded("id")
            _ = try await RunHistoryRoutes.mapped { try await history.delete(ids: [id]) }
            return site.redirect(to: "/runs?deleted=\(PercentEncoding.encoded(id))")
        }
        pages.post("runs/{id}/restore") { _, context in
            let id = try context.parameters.decoded("id")
            _ = try await RunHistoryRoutes.mapped { try await history.restore(ids: [id]) }
            return site.redirect(to: "\(RunLinks.run(id))?restored=1")
        }
        pages.get("records") { request, _ in
            try await RecordsPage(history: history, site: site).response(request)
        }
        pages.get("fitness") { _, _ in
            try await FitnessPage(history: history, site: site).response()
        }
        pages.get("heatmap") { request, _ in try HeatmapPage(site: site).response(request) }
        HeatmapRoutes.add(to: pages, store: runStore.store, units: site.units, timeZone: site.timeZone)
    }

    package func nowSections(site: WebSite) async -> [String] {
        let history = RunHistory(store: runStore.store, training: options.training)
        let live = LiveRunSection(controller: controller, history: history)
        do {
            let goals = try await GoalsSection(history: history, site: site).html()
            return [try await live.html(site: site)] + (goals.isEmpty ? [] : [goals])
        } catch {
            context.logger.error("cannot show the live run: \(error)")
            return [
                "<section class=\"card\"><h2>Run</h2><p class=\"notice error\">The live run cannot be shown: \(XMLText.escape("\(error)"))</p></section>"
            ]
        }
    }
}

/// Paths of the run pages and of the API for one run (the id percent-encoded, its dots too).
enum RunLinks {
    static func run(_ id: String) -> String { "/runs/\(PercentEncoding.pathSegment(id))" }
    static func api(_ id: String, _ action: String) -> String {
        "/v1/runs/\(PercentEncoding.pathSegment(id))/\(action)"
    }
}
