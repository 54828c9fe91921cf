import Foundation
import Logging
import MeridianCore
import MeridianStore

/// Publishes `goal.reached` on the event bus when a saved run (live or imported through the service) brings a goal's
/// period to its target, once per goal and period (`GoalBook.reached`).
package struct GoalWatch: Sendable {
    let store: Store
    let events: EventBus
    let timeZone: TimeZone
    let units: UnitSystem
    let logger: Logger
    var clock: @Sendable () -> Date = Date.init

    /// Checks the goals after runs `runIDs` were saved and publishes each one reached.
    package func runsSaved(_ runIDs: [String]) async {
        do {
            let now = clock()
            let reached = try await store.database.write { [timeZone, units] db in
                try runIDs.flatMap { id in
                    try GoalBook.reached(byRun: id, now: now, timeZone: timeZone, units: units, in: db)
                }
            }
            for goal in reached { events.publish("goal.reached", goal) }
        } catch {
            logger.error("cannot check the goals after a saved run: \(error)")
        }
    }

    /// Follows the live runs' `run.state` events until cancelled, checking the goals after each run saved.
    package func followLiveRuns() async {
        struct StateEvent: Decodable {
            var id: String
            var state: String
            var reason: String
        }
        for await event in events.subscribe(names: ["run.state"]) {
            guard
                let state = try? MeridianJSON.makeDecoder().decode(StateEvent.self, from: Data(event.json.utf8)),
                state.reason == "stopped", state.state == RunState.stopped.rawValue
            else { continue }
            await runsSaved([state.id])
        }
    }
}
