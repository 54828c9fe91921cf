import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP

/// The "now" page (`/`): the plugins' live sections (the active run), then the latest fused fix with its
/// signal quality ("waiting for GPS" before the first) and the state of every provider, refreshed on `fix`.
struct NowPage: Sendable {
    let host: PluginHost
    let pages: [any WebPages]

    func add(to router: RouterGroup<MeridianRequestContext>, site: WebSite) {
        router.get("/") { _, _ in
            var sections: [String] = []
            for plugin in pages { sections += await plugin.nowSections(site: site) }
            sections.append(try positionSection(site: site))
            let body = try ShellTemplates.set.render("now", NowModel(zone: site.format.zoneName(at: Date()), sections: sections))
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
            FixModel(coordinate: "\(NumberText.fixed(coordinate.latitude, decimals: 5)), \(NumberText.fixed(coordinate.longitude, decimals: 5))",
                     accuracy: fix.horizontalAccuracy.map { "±" + site.format.distance($0) } ?? "unknown",
                     speed: fix.speed.map { TimeFormat.speed(metresPerSecond: $0, units: site.units) } ?? "unknown",
                     satellites: fix.satellitesUsed.map(String.init) ?? "unknown",
                     provider: fix.providerID,
                     age: host.position.age().map(Self.age) ?? "unknown")
        }
        let providers = host.providerReports().enumerated().map { index, report in
            ProviderModel(index: index, id: report.id, type: report.type, state: report.state.rawValue, active: report.active,
                          message: report.message.flatMap { $0.isEmpty ? nil : $0 },
                          age: report.lastFixAgeS.map(Self.age) ?? "never", fixes: report.fixesReceived)
        }
        let signalText: String
        if fix == nil { signalText = "Waiting for GPS" }
        else { signalText = quality.map { "Signal \($0.rawValue)" } ?? "Signal unknown" }
        let model = PositionModel(state: fix == nil ? "waiting" : "fix", signalClass: quality?.rawValue ?? "none",
                                  signalText: signalText, fix: fixModel, providers: providers, hasProviders: !providers.isEmpty)
        return try ShellTemplates.set.render("position", model)
    }

    /// "0.4 s ago", "12 s ago", "3 min ago".
    static func age(_ seconds: Double) -> String {
        if seconds < 10 { return "\(NumberText.fixed(seconds, decimals: 1)) s ago" }
        if seconds < 120 { return "\(Int(seconds.rounded())) s ago" }
        return "\(Int((seconds / 60).rounded())) min ago"
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
