import Foundation
import Hummingbird
import MeridianCore
import MeridianWeb

/// `/heatmap?activity=&from=&to=`: every saved route on one map, brighter where run more often (the picture is
/// `/heatmap.svg` with the same filter), with a form to choose the activity and the period.
struct HeatmapPage {
    let site: WebSite

    func response(_ request: Request) throws -> Response {
        let parameters = request.uri.queryParameters
        func value(_ name: String) -> String? {
            parameters[Substring(name)].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        }
        let (activity, from, to) = (value("activity"), value("from"), value("to"))
        var problem: String?
        do {
            _ = try HeatmapRequest(
                activity: activity, from: from, to: to, width: nil, timeZone: site.timeZone, prefix: "")
        } catch {
            problem = error.description
        }
        let query = [("activity", activity), ("from", from), ("to", to)].compactMap { name, value in
            value.map { "\(name)=\(PercentEncoding.encoded($0))" }
        }
        let model = Model(
            zone: site.format.zoneName(at: Date()),
            activities: [Choice(value: "", label: "Every activity", selected: activity == nil)]
                + Activity.allCases.map {
                    Choice(value: $0.rawValue, label: $0.rawValue.capitalized, selected: activity == $0.rawValue)
                },
            from: from ?? "", to: to ?? "", error: problem,
            pictureURL: "/heatmap.svg" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")),
            narrowURL: "/heatmap.svg?" + (query + ["width=400"]).joined(separator: "&"))
        return try site.page(
            title: "Heatmap", body: Self.templates.render("heatmap", model), path: "/heatmap",
            status: problem == nil ? .ok : .badRequest)
    }

    struct Model {
        var zone: String
        var activities: [Choice]
        var from, to: String
        var error: String?
        /// The picture at 400 pixels, whose text stays legible on a phone.
        var pictureURL, narrowURL: String
    }

    struct Choice {
        var value, label: String
        var selected: Bool
    }

    static let templates = TemplateSet([
        "heatmap": #"""
        <h1>Heatmap</h1>
        <p class="lede">Every saved route on one map, brighter where you ran more often · days in {{zone}}</p>
        <form class="card inline" method="get" action="/heatmap" aria-label="Choose the runs">
        <div class="field"><label for="activity">Activity</label><select id="activity" name="activity">{{#activities}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/activities}}</select></div>
        <div class="field"><label for="from">From</label><input id="from" name="from" type="date" value="{{from}}"></div>
        <div class="field"><label for="to">To</label><input id="to" name="to" type="date" value="{{to}}"></div>
        <button type="submit">Show</button>
        </form>
        {{#error}}<p class="notice error" role="alert">{{error}}</p>{{/error}}
        {{^error}}<figure class="card heatmap"><img src="{{pictureURL}}" srcset="{{narrowURL}} 400w, {{pictureURL}} 800w" sizes="(max-width: 600px) 100vw, 1000px" alt="Heatmap of the chosen routes: bright where run often, dark red where run once">
        <figcaption class="muted small">Drawn by Meridian from the stored routes: no map tiles, nothing fetched from elsewhere.</figcaption></figure>{{/error}}
        """#
    ])
}
