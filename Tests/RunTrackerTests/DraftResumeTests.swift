import Foundation
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

/// Issue 23, item 1: only the live run just stopped too short to save can be resumed; an older draft (from an earlier
/// session, or imported before imports stopped making drafts) is refused with a message and never takes the now page.
@Suite struct DraftResumeTests {
    /// A live run of 20 s stopped as a draft by `controller`; returns its id.
    static func shortRun(_ controller: LiveRunController, clock: ManualClock) async throws -> String {
        let run = try await controller.start(name: "Too short", activity: .run)
        var east = 0.0
        await DurabilityStoreTests.run(controller, clock: clock, seconds: 20, from: &east)
        let stopped = try await controller.stop(id: run.run.id)
        #expect(stopped.run.state == .draft)
        return run.run.id
    }

    @Test(
        "the draft just stopped resumes; an hour after it stopped it is refused, and it is no longer the current draft")
    func currentDraftWithinTheWindow() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try DurabilityStoreTests.controller(folder.store.path, clock: clock)
        let id = try await Self.shortRun(controller, clock: clock)
        #expect(try await controller.currentDraft()?.id == id)
        clock.advance(60)
        #expect(try await controller.resume(id: id).run.state == .tracking)
        #expect(try await controller.stop(id: id).run.state == .draft)
        clock.advance(LiveRunController.draftResumeWindow + 1)
        #expect(try await controller.currentDraft() == nil)
        let stopped = try #require(
            try await RunStore(store: Store.open(path: folder.store.path)).summary(id: id)?.endedAt)
        await #expect(throws: RunCommandError.notCurrentDraft(id: id, endedAt: stopped)) {
            _ = try await controller.resume(id: id)
        }
    }

    @Test("a start with a draft's id says to resume it only while it is the draft just stopped, else to discard it")
    func startWithADraftsID() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let clock = ManualClock()
        let controller = try DurabilityStoreTests.controller(folder.store.path, clock: clock)
        let id = try await Self.shortRun(controller, clock: clock)
        let current = await #expect(throws: RunCommandError.self) {
            _ = try await controller.start(name: nil, activity: .run, id: id)
        }
        #expect(current?.description.contains("POST /v1/runs/\(id)/resume") == true, "\(String(describing: current))")
        clock.advance(LiveRunController.draftResumeWindow + 1)
        let old = await #expect(throws: RunCommandError.self) {
            _ = try await controller.start(name: nil, activity: .run, id: id)
        }
        let message = old?.description ?? ""
        #expect(message.contains("POST /v1/runs/\(id)/discard") && !message.contains("/resume"), "\(message)")
    }

    @Test(
        "a draft left by an earlier session is refused over HTTP with run_not_resumable, and the now page offers a start"
    )
    func draftOfAnEarlierSession() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let clock = ManualClock()
        let earlier = try DurabilityStoreTests.controller(fixture.store.path, clock: clock)
        let id = try await Self.shortRun(earlier, clock: clock)  // stopping writes the draft before it returns

        let server = try await TrackerServer.start(store: fixture.store)
        let now = try await server.client.request("GET", "/now/run")
        #expect(now.text.contains("data-state=\"idle\"") && !now.text.contains("too short to save"), "\(now.text)")
        let resumed = try await server.call("POST", "/v1/runs/\(id)/resume")
        #expect(resumed.status == 409 && resumed.errorCode == "run_not_resumable", "\(resumed.text)")
        #expect(resumed.text.contains("discard"), "\(resumed.text)")
        let active = try await server.call("GET", "/v1/runs/active")
        #expect(active.status == 404)
        #expect(try await server.call("POST", "/v1/runs/\(id)/discard").status == 204)
        try await server.stop()
    }
}
