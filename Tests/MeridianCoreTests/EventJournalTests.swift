import MeridianCore
import Synchronization
import Testing

/// The bus hands the events a journal (the webhooks' outbox) wants to it, except those a writer journaled already.
struct EventJournalTests {
    final class Recorder: EventJournal {
        let recorded = Mutex<[String]>([])
        func wants(_ name: String) -> Bool { EventPattern.matches(name, ["run.*", "record.new"]) }
        func record(_ name: String, json: String) { recorded.withLock { $0.append("\(name) \(json)") } }
    }

    struct Payload: Encodable { var n: Int }

    @Test func journalGetsWhatItWantsOnceWithoutSubscribers() {
        let bus = EventBus()
        let recorder = Recorder()
        bus.attach(journal: recorder)
        bus.publish("run.state", Payload(n: 1))
        bus.publish("fix", Payload(n: 2))
        bus.publish("record.new", Payload(n: 3), journaled: true)
        bus.publish("record.new", json: #"{"n":4}"#)
        #expect(recorder.recorded.withLock { $0 } == [#"run.state {"n":1}"#, #"record.new {"n":4}"#])
    }

    @Test func patternsAndTheirProblems() {
        #expect(EventPattern.matches("flyer.enter", ["flyer.*"]))
        #expect(EventPattern.matches("anything", ["*"]))
        #expect(!EventPattern.matches("flyers", ["flyer.*"]))
        #expect(EventPattern.problem(with: "run.*") == nil)
        #expect(EventPattern.problem(with: "run*") != nil)
        #expect(EventPattern.problem(with: ".*") != nil)
    }
}
