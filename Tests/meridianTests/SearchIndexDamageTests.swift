import Foundation
import MeridianTesting
import Testing

@testable import MeridianStore

/// The stored flyer search index on a page SQLite cannot read, behind a valid stamp: the service keeps
/// running, answers searches from SpatiaLite's R*Tree, says `damaged` and refuses writes.
@Suite("damaged stored search index")
struct SearchIndexDamageTests {
    /// What SQLite's own shell answers to `sql` on `path`.
    static func sqlite(_ path: String, _ sql: String) throws -> String {
        let shell = try ManagedProcess("sqlite3", [path, sql])
        shell.waitUntilExit()
        return shell.output().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The ids of `meridian flyers near`'s or `GET /v1/flyers/nearby`'s answer.
    static func ids(_ json: Data) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        return items.compactMap { $0["id"] as? String }
    }

    @Test(
        "one bit flipped in a page of flyer_search_index: the service runs, searches answer from the R*Tree, /health damaged, writes 503"
    )
    func unreadableIndexPage() async throws {
        let directory = try TestData.temporaryDirectory("damaged-search-index")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (original, _) = try StoreIntegrityTests.makeDatabase(in: directory)
        // A service's file: the run tracker's tables are there too (a damaged file cannot take new tables).
        let first = try StoreIntegrityTests.launch(original, consumers: ["flyers", "run-tracker"], in: directory)
        try await ManagedProcess.waitUntil(timeout: 60, "meridian serve to listen or exit") {
            !first.isRunning || first.output().contains("listening on http")
        }
        first.stop()
        let expected = try MeridianBinary.run(["flyers", "near", "48,2", "--limit", "10", "--json", "--db", original])
        try #require(expected.status == 0, "\(expected.stderr)")
        let path = directory.appendingPathComponent("damaged.sqlite").path
        try FileManager.default.copyItem(atPath: original, toPath: path)
        // The first overflow page of the index's arrays starts with the number of the next one: one bit flipped
        // there sends SQLite past the end of the file ("database disk image is malformed").
        let page = try #require(
            Int(
                try Self.sqlite(
                    path,
                    "SELECT pageno FROM dbstat WHERE name = 'flyer_search_index' AND pagetype = 'overflow' ORDER BY path LIMIT 1"
                )))
        let pageSize = try #require(Int(try Self.sqlite(path, "PRAGMA page_size")))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize + 1))
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: UInt64((page - 1) * pageSize + 1))
        try handle.write(contentsOf: [byte ^ 0x10])
        try handle.close()
        #expect(VerifiedStamp.record(path), "the stamp is forged: the damage is what a stamp cannot show")

        let process = try StoreIntegrityTests.launch(path, consumers: ["flyers", "run-tracker"], in: directory)
        defer { process.stop() }
        try await ManagedProcess.waitUntil(timeout: 60, "meridian serve to listen or exit") {
            !process.isRunning || process.output().contains("listening on http")
        }
        let output = process.output()
        try #require(process.isRunning, "the service exited: \(output)")
        #expect(
            output.contains("critical") && output.contains("flyer_search_index") && output.contains(path)
                && output.contains("meridian store check") && output.contains("writes are refused"), "\(output)")
        let client = try ServedInstance.client(from: output)
        #expect(try await client.request("GET", "/health").json()["status"] as? String == "damaged")
        let nearby = try await client.request("GET", "/v1/flyers/nearby?lat=48&lon=2&limit=10")
        #expect(nearby.status == 200, "\(nearby.text)")
        #expect(
            try Self.ids(nearby.body) == Self.ids(Data(expected.stdout.utf8)),
            "the R*Tree answers as the sound file's index does")
        let feature =
            #"{"type": "Feature", "id": "probe", "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}, "properties": {"title": "Probe"}}"#
        let write = try await client.request("POST", "/v1/flyers", body: Data(feature.utf8))
        #expect(write.status == 503 && write.text.contains("database_unavailable"), "\(write.status) \(write.text)")
        let run = try await client.request("POST", "/v1/runs", body: Data(#"{"name": "Probe"}"#.utf8))
        #expect(run.status == 503 && run.text.contains("database_unavailable"), "\(run.status) \(run.text)")
        #expect(process.isRunning)
        process.stop()
        #expect(
            !FileManager.default.fileExists(atPath: VerifiedStamp.path(for: path)),
            "a file found damaged keeps no stamp")
    }
}
