import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP

/// The "now" page (`/`): the plugins' live sections (the active run), then the latest fused fix with its
/// signal quality ("waiting for GPS" before the first, "no signal" once its provider stopped or went stale) and
/// the state of every provider, refreshed on `fix`.
struct NowPage: Sendable {
    let host: PluginHost
    let pages: [any WebPages]

    func add(to router: RouterGroup<MeridianRequestContext>, site: WebSite) {
        router.get("/") { _, _ in
            var sections: [String] = []
            for plugin in pages { sections += await plugin.nowSections(site: site) }
            sections.append(try positionSection(site: site))
            let body = try ShellTemplates.set.render(
                "now", NowModel(zone: site.format.zoneName(at: Date()), sections: sections))
            return try site.page(title: "Now", body: body, path: "/")
        }
        router.get("now/position") { _, _ in
            site.fragment(try positionSection(site: site))
        }
    }

    struct NowModel {
        var zone: String
        var sections: [String]
    }

    /// The position card and the receivers table.
    func positionSection(site: WebSite) throws -> String {
        let fix = host.position.latest.flatMap { fix in fix.coordinate.map { (fix, $0) } }
        let quality = fix?.0.signalQuality
        let fixModel = fix.map { fix, coordinate in
            FixModel(
                coordinate:
                    "\(NumberText.fixed(coordinate.latitude, decimals: 5)), \(NumberText.fixed(coordinate.longitude, decimals: 5))",
                accuracy: fix.horizontalAccuracy.map { "±" + site.format.distance($0) } ?? "unknown",
                speed: fix.speed.map { TimeFormat.speed(metresPerSecond: $0, units: site.units) } ?? "unknown",
                satellites: fix.satellitesUsed.map(String.init) ?? "unknown",
                provider: fix.providerID,
                age: host.position.age().map(PageFormat.age) ?? "unknown")
        }
        let providers = host.providerReports().enumerated().map { index, report in
            ProviderModel(
                index: index, id: report.id, type: report.type, state: report.state.rawValue, active: report.active,
                message: report.message.flatMap { $0.isEmpty ? nil : $0 },
                age: report.lastFixAgeS.map(PageFormat.age) ?? "never", fixes: report.fixesReceived)
        }
        let signal =
            fix.map { fix, _ in
                Self.signal(
                    quality: quality, age: host.position.age(),
                    provider: host.providerReports().first { $0.id == fix.providerID })
            } ?? (text: "Waiting for GPS", level: "none")
        let model = PositionModel(
            state: fix == nil ? "waiting" : "fix", signalClass: signal.level,
            signalText: signal.text, fix: fixModel, providers: providers, hasProviders: !providers.isEmpty)
        return try ShellTemplates.set.render("position", model)
    }

    /// The signal shown for the latest fix (`age` seconds old, from `provider`): its quality while that provider
    /// delivers fresh fixes (within its `stale_after`) and still runs; else that there is none now, with the
    /// provider's state when it stopped and the fix's age.
    static func signal(quality: SignalQuality?, age: Double?, provider: ProviderReport?) -> (
        text: String, level: String
    ) {
        let stopped = provider.map { [.finished, .failed, .disconnected].contains($0.state) } ?? true
        guard let provider, provider.active, !stopped else {
            let state = provider.flatMap { stopped ? "\($0.id) \($0.state.rawValue), " : nil } ?? ""
            return ("No signal (\(state)last fix \(age.map(PageFormat.age) ?? "of unknown age"))", "none")
        }
        return (quality.map { "Signal \($0.rawValue)" } ?? "Signal unknown", quality?.rawValue ?? "none")
    }

    struct FixModel {
        var coordinate: String
        var accuracy: String
        var speed: String
        var satellites: String
        var provider: String
        var age: String
    }

    struct ProviderModel {
        var index: Int
        var id: String
        var type: String
        var state: String
        var active: Bool
        var message: String?
        var age: String
        var fixes: Int
    }

    struct PositionModel {
        var state: String
        var signalClass: String
        var signalText: String
        var fix: FixModel?
        var providers: [ProviderModel]
        var hasProviders: Bool
    }
}
