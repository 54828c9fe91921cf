import ActivityFiles
import Foundation
import Logging
import MeridianCore
import MeridianStore
import MeridianTesting
import Testing

@testable import RunTracker

@Suite("run names and notes have documented limits, in characters and in bytes")
struct RunTextLimitTests {
    /// One character as people count it, carrying 1,000 combining marks (2,001 bytes of UTF-8).
    static let heavyCharacter = "e" + String(repeating: "\u{0301}", count: 1_000)

    @Test("an edit's name over 200 characters or 800 bytes is refused, naming the field; 200 plain characters pass")
    func editLimits() throws {
        #expect(Self.heavyCharacter.count == 1)
        #expect(throws: RunHistoryError.self) { try RunEdit(name: Self.heavyCharacter).validated() }
        #expect(throws: RunHistoryError.self) { try RunEdit(name: String(repeating: "a", count: 201)).validated() }
        #expect(try RunEdit(name: String(repeating: "a", count: 200)).validated().name?.count == 200)
        let notes = String(repeating: Self.heavyCharacter, count: 20)
        do {
            _ = try RunEdit(notes: notes).validated()
            Issue.record("40 kB of notes in 20 characters were accepted")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "notes: is 40020 bytes of UTF-8 long; the limit is 10000 characters (40000 bytes of UTF-8)"))
        }
    }

    @Test("an import refuses a run name over the limit, from the request or from the file, and stores nothing")
    func importedNames() async throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let importer = RunImporter(runStore: try RunStore(store: fixture.store), settings: TrackerSettings())
        let file = "gpx/sportstracker__Edge705-Running-HR-2Laps.from-tcx.gpx"
        let text = String(decoding: try Data(contentsOf: TestData.url(file)), as: UTF8.self)
        let megabyteName = String(repeating: "x", count: 1 << 20)
        let named = text.replacingOccurrences(
            of: "<name>Edge705-Running-Heartrate-2Laps.tcx</name>", with: "<name>\(megabyteName)</name>")
        #expect(named != text)
        do {
            _ = try importer.importFile(Data(named.utf8), file: "long.gpx")
            Issue.record("a 1 MB name from the file was stored")
        } catch let error as ActivityFileError {
            // (The XML reader keeps only the first 64 KiB of an element's text.)
            #expect(
                error.description.contains("the activity's name in the file is ")
                    && error.description.contains(" bytes of UTF-8 long; the limit is 200 characters"), "\(error)")
        }
        do {
            _ = try importer.importFile(
                Data(text.utf8), file: "ok.gpx", request: .init(name: String(repeating: "y", count: 201)))
            Issue.record("a 201-character name was stored")
        } catch let error as ActivityFileError {
            #expect(error.description.contains("the run name given is 201 characters long"))
        }
        #expect(try await fixture.history.list(RunListQuery()).runs.isEmpty)
        let outcomes = try importer.importFile(
            Data(text.utf8), file: "ok.gpx", request: .init(name: String(repeating: "y", count: 200)))
        #expect(outcomes.count == 1)
    }

    @Test("a live start with a name over the limit is refused without echoing the name")
    func liveStart() async throws {
        let folder = try TemporaryStore()
        defer { folder.remove() }
        let controller = LiveRunController(
            runStore: try RunStore(store: folder.store), settings: TrackerSettings(), events: EventBus(),
            units: .metric, logger: Logger(label: "test"))
        do {
            _ = try await controller.start(name: String(repeating: "z", count: 1 << 20), activity: .run)
            Issue.record("a 1 MB name started a run")
        } catch let error as RunCommandError {
            #expect(
                error.description
                    == "the run name is 1048576 bytes of UTF-8 long; the limit is 200 characters (800 bytes of UTF-8); give a shorter one"
            )
        }
        #expect(try await controller.activeStatus() == nil)
    }
}
