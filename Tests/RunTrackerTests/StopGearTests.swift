import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing
import Workloads

@testable import RunTracker

/// Stopping a live run answers with the gear it took (its activity's default item), saying when the run took it
/// past its retirement distance, as `runs show` and the run page do; `meridian runs stop` prints it.
@Suite("Gear in the answer of a stop")
struct StopGearTests {
    /// Feeds the active run two minutes at 3.5 m/s eastward (420 m), one fix a second: enough to be saved.
    static func runTwoMinutes(_ controller: LiveRunController, clock: ManualClock) async {
        for second in 1...120 {
            clock.advance(1)
            await controller.consume(
                SyntheticTrack.fix(second: Double(second), east: 3.5 * Double(second), north: 0, speed: 3.5))
        }
    }

    @Test("a 420 m live run on shoes 100 m short of retirement: the stop says it took them past; a draft has no gear")
    func stopSaysTheGearPassedRetirement() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try DurabilityStoreTests.controller(folder.store.path, clock: clock)
        _ = try await GearBook(store: folder.store).add(
            GearChange(name: "Pegasus 40", activity: .run, startDistance: 5900, retireDistance: 6000, isDefault: true))
        let run = try await controller.start(name: "Lunch run", activity: .run)
        await Self.runTwoMinutes(controller, clock: clock)
        let stopped = try await controller.stop(id: run.run.id)
        #expect(stopped.saved, "\(stopped.message)")
        let gear = try #require(stopped.gear)
        #expect(gear.gear.name == "Pegasus 40" && gear.passedRetirement)
        #expect(gear.text(units: .metric).contains("this run took it past its retirement distance of 6.0 km"))
        // Stopping again answers the same.
        #expect(try await controller.stop(id: run.run.id).gear == gear)
        let json =
            try JSONSerialization.jsonObject(with: try MeridianJSON.makeEncoder().encode(stopped)) as? [String: Any]
        #expect((json?["gear"] as? [String: Any])?["passed_retirement"] as? Bool == true, "\(json ?? [:])")

        let short = try await controller.start(name: "Too short", activity: .run)
        clock.advance(5)
        let draft = try await controller.stop(id: short.run.id)
        #expect(!draft.saved && draft.gear == nil)
    }
}
