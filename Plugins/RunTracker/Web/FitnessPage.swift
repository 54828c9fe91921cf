import Foundation
import Hummingbird
import MeridianCore
import MeridianWeb

/// `/fitness`: fitness, fatigue and form over the last 90 days (or up to the latest run when the history is older),
/// and the current VDOT with its race predictions.
struct FitnessPage {
    let history: RunHistory
    let site: WebSite

    func response() async throws -> Response {
        let database = history.store.database
        let days = try await TrainingBook.fitness(
            settings: history.training, from: nil, to: nil, timeZone: site.timeZone, now: Date(),
            in: database)
        let vdot = try await database.read { db in try VdotBook.current(at: nil, in: db) }
        let figures = RunFigures(units: site.units)
        let today = days.last
        let model = Model(
            zone: site.format.zoneName(at: Date()),
            chart: FitnessChart().svg(
                days, title: "Fitness, fatigue and form, day by day", label: { String($0.dropFirst(5)) }),
            hasToday: today != nil, date: today?.date ?? "",
            ctl: today.map { NumberText.fixed($0.ctl, decimals: 1) } ?? "",
            atl: today.map { NumberText.fixed($0.atl, decimals: 1) } ?? "",
            tsb: today.map { NumberText.fixed($0.tsb, decimals: 1) } ?? "",
            hasVdot: vdot != nil, vdot: vdot.map { NumberText.fixed($0.vdot, decimals: 1) } ?? "",
            source: vdot.map {
                "\(figures.distance($0.from.distanceM)) in \(figures.duration($0.from.elapsedS)), \(site.format.day($0.from.startedAt))"
            } ?? "",
            sourceHref: vdot.map { RunLinks.run($0.from.runId) } ?? "",
            predictions: vdot?.predictions.map { prediction in
                Prediction(
                    distance: figures.distance(prediction.distanceM),
                    vdot: prediction.timeSVdot.map { figures.duration($0) } ?? "–",
                    riegel: figures.duration(prediction.timeSRiegel))
            } ?? [])
        return try site.page(title: "Fitness", body: Self.templates.render("fitness", model), path: "/fitness")
    }

    struct Model {
        var zone, chart: String
        var hasToday: Bool
        var date, ctl, atl, tsb: String
        var hasVdot: Bool
        var vdot, source, sourceHref: String
        var predictions: [Prediction]
    }

    struct Prediction {
        var distance, vdot, riegel: String
    }

    static let templates = TemplateSet([
        "fitness": #"""
        <h1>Fitness</h1>
        <p class="lede">Training load of every saved run (heart-rate TRIMP, or rTSS from pace) · days in {{zone}}</p>
        <section class="card" aria-labelledby="fitness-title"><h2 id="fitness-title">Fitness, fatigue and form</h2>
        {{#hasToday}}<dl class="stats"><div class="stat"><dt>Fitness (CTL, 42 days)</dt><dd>{{ctl}}</dd></div>
        <div class="stat"><dt>Fatigue (ATL, 7 days)</dt><dd>{{atl}}</dd></div>
        <div class="stat"><dt>Form (TSB)</dt><dd>{{tsb}}</dd></div></dl>
        <p class="muted small">On {{date}}.</p>{{/hasToday}}
        <figure class="chart"><figcaption>Fitness (green), fatigue (red, dashed) and below them form (blue); bars: each day's load</figcaption>{{{chart}}}</figure>
        </section>
        <section class="card" aria-labelledby="vdot-title"><h2 id="vdot-title">VDOT and race predictions</h2>
        {{#hasVdot}}<p>VDOT <strong>{{vdot}}</strong>, from <a href="{{sourceHref}}">{{source}}</a> (the best of the 6 weeks up to the latest run of a mile or more).</p>
        <div class="table-wrap"><table><thead><tr><th scope="col">Distance</th><th scope="col" class="num">From VDOT</th><th scope="col" class="num">Riegel (1.06)</th></tr></thead>
        <tbody>{{#predictions}}<tr><th scope="row">{{distance}}</th><td class="num">{{vdot}}</td><td class="num">{{riegel}}</td></tr>{{/predictions}}</tbody></table></div>{{/hasVdot}}
        {{^hasVdot}}<p class="muted">No VDOT yet: it comes from runs with a mile or more.</p>{{/hasVdot}}
        </section>
        """#
    ])
}
