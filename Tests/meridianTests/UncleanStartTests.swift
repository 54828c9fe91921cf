import Foundation
import MeridianTesting
import Testing

@testable import MeridianStore

/// `meridian serve` after anything but its own clean stop: after `kill -9`, after `meridian runs import`, after a
/// write by `sqlite3`. The service answers at once from the stored search index (exactly: what was written is in
/// the answers), checks the file in the background and takes writes again when the check passes.
@Suite("starts after an unclean stop")
struct UncleanStartTests {
    static let uncleanNotice = "was not closed cleanly by a checked service"
    static let sound = "writes are taken again"
    static let proofLost = "SpatiaLite answers until the two are compared"

    /// Starts `meridian serve` (flyers and run tracker) on `path` and waits until it listens and its background
    /// check has said what it found.
    static func start(_ path: String, in directory: URL) async throws -> ManagedProcess {
        let process = try StoreIntegrityTests.launch(path, consumers: ["flyers", "run-tracker"], in: directory)
        try await ManagedProcess.waitUntil(timeout: 60, "meridian serve to listen and check the store") {
            !process.isRunning
                || (process.output().contains("listening on http") && process.output().contains("store check:"))
        }
        try #require(process.isRunning, "\(process.output())")
        return process
    }

    /// The title of flyer `id` as the service answers it.
    static func title(_ id: String, _ client: HTTPTestClient) async throws -> String? {
        let reply = try await client.request("GET", "/v1/flyers/\(id)")
        let properties = try reply.json()["properties"] as? [String: Any]
        return properties?["title"] as? String
    }

    /// The ids the service's nearby search answers around the imported flyers.
    static func nearby(_ client: HTTPTestClient) async throws -> [String] {
        let reply = try await client.request("GET", "/v1/flyers/nearby?lat=48&lon=2&radius_m=200000&limit=50")
        #expect(reply.status == 200, "\(reply.text)")
        return try SearchIndexDamageTests.ids(reply.body)
    }

    static func post(_ id: String, _ client: HTTPTestClient) async throws -> Int {
        let feature =
            #"{"type": "Feature", "id": "\#(id)", "geometry": {"type": "Point", "coordinates": [2.0001, 48.0001]}, "properties": {"title": "Posted"}}"#
        return try await client.request("POST", "/v1/flyers", body: Data(feature.utf8)).status
    }

    @Test("after kill -9: serves at once with what was written before, checks in the background, then takes writes")
    func afterKill() async throws {
        let directory = try TestData.temporaryDirectory("unclean-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _) = try StoreIntegrityTests.makeDatabase(in: directory)
        let first = try await Self.start(path, in: directory)
        let client = try ServedInstance.client(from: first.output())
        #expect(try await Self.post("before-kill", client) == 201)
        first.send(SIGKILL)
        first.waitUntilExit()
        #expect(!VerifiedStamp.matches(path), "a killed service leaves the file unstamped")

        let second = try await Self.start(path, in: directory)
        defer { second.stop() }
        let output = second.output()
        #expect(
            output.contains(Self.uncleanNotice) && output.contains(Self.sound)
                && output.contains("stored search index read")
                && !output.contains(Self.proofLost), "\(output)")
        let again = try ServedInstance.client(from: output)
        #expect(try await Self.nearby(again).contains("before-kill"))
        #expect(try await Self.post("after-check", again) == 201)
    }

    @Test("meridian runs import closes the store it opened: the file stays stamped, and the next start trusts it")
    func afterRunsImport() async throws {
        let directory = try TestData.temporaryDirectory("unclean-runs-import")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _) = try StoreIntegrityTests.makeDatabase(in: directory)
        let first = try await Self.start(path, in: directory)
        first.stop()
        #expect(VerifiedStamp.matches(path), "a clean stop after the check stamps the file")
        let gpx = TestData.url("gpx/pytrainer__gpxplus_sample.gpx").path
        let imported = try MeridianBinary.run(["runs", "import", gpx, "--db", path])
        try #require(imported.status == 0, "\(imported.stderr)")
        #expect(VerifiedStamp.matches(path), "the import left the stamped file stamped")

        let second = try await Self.start(path, in: directory)
        defer { second.stop() }
        let output = second.output()
        #expect(
            output.contains("as this service left it") && !output.contains(Self.uncleanNotice)
                && !output.contains(Self.proofLost), "\(output)")
        let client = try ServedInstance.client(from: output)
        let runs = try await client.request("GET", "/v1/runs")
        #expect(runs.status == 200 && runs.text.contains("\"id\""), "\(runs.text)")
    }

    @Test(
        "after sqlite3 changed a flyer: the change is in the first answers, from the stored index with the change log")
    func afterSQLite() async throws {
        let directory = try TestData.temporaryDirectory("unclean-sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _) = try StoreIntegrityTests.makeDatabase(in: directory)
        try await Self.start(path, in: directory).stop()  // every plugin's tables: no migration at the next start
        _ = try SearchIndexDamageTests.sqlite(path, "UPDATE flyers SET title = 'Changed by sqlite3' WHERE id = 'f1'")
        _ = try SearchIndexDamageTests.sqlite(path, "DELETE FROM flyers WHERE id = 'f2'")
        #expect(!VerifiedStamp.matches(path))

        let process = try await Self.start(path, in: directory)
        defer { process.stop() }
        let output = process.output()
        #expect(
            output.contains(Self.uncleanNotice) && output.contains("stored search index read")
                && !output.contains(Self.proofLost), "\(output)")
        let client = try ServedInstance.client(from: output)
        #expect(try await Self.title("f1", client) == "Changed by sqlite3")
        #expect(try await client.request("GET", "/v1/flyers/f2").status == 404)
        let expected = try MeridianBinary.run(["flyers", "near", "48,2", "--limit", "10", "--json", "--db", path])
        let nearby = try await client.request("GET", "/v1/flyers/nearby?lat=48&lon=2&limit=10")
        #expect(try SearchIndexDamageTests.ids(nearby.body) == SearchIndexDamageTests.ids(Data(expected.stdout.utf8)))
    }

    @Test(
        "after sqlite3 wrote past the change log (its trigger dropped and put back): SpatiaLite answers until the index is compared, then rebuilt"
    )
    func pastTheChangeLog() async throws {
        let directory = try TestData.temporaryDirectory("unclean-past-log")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _) = try StoreIntegrityTests.makeDatabase(in: directory)
        try await Self.start(path, in: directory).stop()
        let trigger = try SearchIndexDamageTests.sqlite(
            path, "SELECT sql FROM sqlite_master WHERE name = 'flyer_changes_update'")
        _ = try SearchIndexDamageTests.sqlite(
            path,
            "DROP TRIGGER flyer_changes_update; UPDATE flyers SET title = 'Unlogged' WHERE id = 'f1'; \(trigger);")

        let process = try await Self.start(path, in: directory)
        defer { process.stop() }
        #expect(process.output().contains(Self.proofLost), "\(process.output())")
        let client = try ServedInstance.client(from: process.output())
        #expect(try await Self.title("f1", client) == "Unlogged")
        try await ManagedProcess.waitUntil(timeout: 60, "the index to be compared and built again") {
            process.output().contains("search index built and stored")
        }
        #expect(process.output().contains("differs from the flyer table on"), "\(process.output())")
        #expect(try await Self.title("f1", client) == "Unlogged")
    }
}
