import Foundation
import MeridianCore
import MeridianWeb

/// The goals' progress in their current periods, a card on the now page and the records page: each goal, a bar
/// and "38.2 of 50 km, 4 days left, 2.9 km a day to go" in the configured units. Nothing without goals.
struct GoalsSection {
    let history: RunHistory
    let site: WebSite

    func html(now: Date = Date()) async throws -> String {
        let (timeZone, units) = (site.timeZone, site.units)
        let goals = try await history.store.database.read { db in
            try GoalBook.progress(now: now, timeZone: timeZone, units: units, in: db)
        }
        guard !goals.isEmpty else { return "" }
        return try Self.templates.render(
            "goals",
            Model(
                goals: goals.map { progress in
                    Row(
                        title: GoalText.title(progress.goal, units: units), period: progress.period.label,
                        share: NumberText.fixed(min(1, progress.done / progress.target), decimals: 3),
                        text: progress.text, reached: progress.reached)
                }))
    }

    struct Model {
        var goals: [Row]
    }

    struct Row {
        var title, period, share, text: String
        var reached: Bool
    }

    static let templates = TemplateSet([
        "goals": #"""
        <section class="card goals" aria-labelledby="goals-title"><h2 id="goals-title">Goals</h2>
        <ul class="goal-list">{{#goals}}<li{{#reached}} class="reached"{{/reached}}><div class="goal-head"><strong>{{title}}</strong> <span class="muted small">{{period}}</span></div>
        <meter min="0" max="1" value="{{share}}" aria-label="{{title}}: {{text}}">{{share}}</meter>
        <p class="small">{{text}}</p></li>{{/goals}}</ul>
        <p class="muted small">Set goals with <code>meridian goals add</code> or POST /v1/goals.</p>
        </section>
        """#
    ])
}
