import Foundation
import MeridianCore
import MeridianWeb

/// The Gear card of the records page: every pair of shoes and bike with the distance it has done, its retirement
/// distance and a bar towards it (left out on a phone), items past it or retired flagged under their name; retired
/// items last. Nothing without gear.
struct GearSection {
    let store: GearBook
    let site: WebSite

    func html() async throws -> String {
        let gear = try await store.list()
        guard !gear.isEmpty else { return "" }
        let units = site.units
        let distance = { (metres: Double) in DistanceFormat.string(metres: metres, units: units) }
        return try Self.templates.render(
            "gear",
            Model(
                items: gear.map { item in
                    Row(
                        name: item.name, kind: item.kind, activity: item.activity.rawValue,
                        distance: distance(item.distanceM), runs: Counted.string(item.runCount, "run"),
                        retire: item.retireDistanceM.map(distance),
                        share: item.retireDistanceM.map {
                            NumberText.fixed(min(1, item.distanceM / $0), decimals: 3)
                        },
                        status: item.retiredAt != nil
                            ? "retired" : item.pastRetirement ? "past its retirement distance" : nil,
                        warning: item.retiredAt == nil && item.pastRetirement, isDefault: item.default)
                }))
    }

    struct Model {
        var items: [Row]
    }

    struct Row {
        var name, kind, activity, distance, runs: String
        var retire, share, status: String?
        var warning, isDefault: Bool
    }

    static let templates = TemplateSet([
        "gear": #"""
        <section class="card" aria-labelledby="gear-title" id="gear"><h2 id="gear-title">Gear</h2>
        <div class="table-wrap"><table class="gear">
        <thead><tr><th scope="col">Item</th><th scope="col" class="num">Distance</th><th scope="col" class="hide-narrow">Retire at</th></tr></thead>
        <tbody>{{#items}}<tr{{#warning}} class="warn"{{/warning}}><th scope="row">{{name}}<div class="muted small">{{kind}} · {{activity}}{{#isDefault}} · default{{/isDefault}}</div>{{#status}}<div class="small status">{{status}}</div>{{/status}}</th>
        <td class="num"><strong>{{distance}}</strong><div class="muted small">{{runs}}</div></td>
        <td class="hide-narrow">{{#retire}}<meter min="0" max="1" value="{{share}}" aria-label="{{name}}: {{distance}} of {{retire}}">{{share}}</meter> <span class="small">{{retire}}</span>{{/retire}}{{^retire}}–{{/retire}}</td></tr>
        {{/items}}</tbody></table></div>
        <p class="muted small">Add shoes and bikes with <code>meridian gear add</code> or POST /v1/gear.</p>
        </section>
        """#
    ])
}
