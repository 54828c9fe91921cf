import Foundation
import MeridianTesting
import Testing

@testable import MeridianStore

/// A flyer database damaged by seeded 64-byte overwrites: `meridian store check` says what is damaged and what to do,
/// and `meridian serve` either finds the damage with the same advice (refused at open, exit 1, no "configuration:"
/// prefix, or found by the whole-file check it runs in the background: critical, writes refused) or serves exactly
/// the flyers that were imported, never a garbled one.
@Suite("damaged databases")
struct StoreIntegrityTests {
    /// A flyer database made by `meridian flyers import`, and its export.
    static func makeDatabase(in directory: URL) throws -> (path: String, export: String) {
        var csv = "id,title,lat,lon,category,address\n"
        var random = SplitMix(seed: 7)
        let categories = ["food", "lost", "sale"]
        for index in 0..<3000 {
            let latitude = 47 + Double(random.next() % 2_000_000) / 1_000_000
            let longitude = 1 + Double(random.next() % 2_000_000) / 1_000_000
            csv +=
                "f\(index),Flyer number \(index),\(latitude),\(longitude),\(categories[index % 3]),\(index) Rue de la Paix\n"
        }
        let file = directory.appendingPathComponent("flyers.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("flyers.sqlite").path
        let imported = try MeridianBinary.run(["flyers", "import", file.path, "--db", path])
        try #require(imported.status == 0, "\(imported.stderr)")
        let export = try MeridianBinary.run(["flyers", "export", "--db", path])
        try #require(export.status == 0, "\(export.stderr)")
        return (path, export.stdout)
    }

    /// Overwrites 64 bytes at an offset chosen by `seed` with bytes chosen by it: anywhere in the file, or inside the
    /// pages of the b-tree `within` names (as SQLite's `dbstat` table lists them).
    static func damage(_ path: String, seed: UInt64, within btree: String? = nil) throws {
        var random = SplitMix(seed: seed)
        let pages = try btree.map { try Self.pages(of: $0, in: path) }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        if let pages {
            let page = try #require(pages.isEmpty ? nil : pages[Int(random.next() % UInt64(pages.count))], "no pages")
            try handle.seek(toOffset: UInt64(page - 1) * 4096 + 64 + random.next() % (4096 - 128))
        } else {
            try handle.seek(toOffset: random.next() % (size - 64))
        }
        handle.write(Data((0..<8).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }))
    }

    /// The page numbers of the b-tree `name` in the database at `path` (page size 4096, SQLite's default).
    static func pages(of name: String, in path: String) throws -> [Int] {
        let shell = try ManagedProcess(
            "sqlite3", [path, "SELECT pageno FROM dbstat WHERE name = '\(name)' ORDER BY pageno"])
        shell.waitUntilExit()
        let pages = shell.output().split(whereSeparator: \.isNewline).compactMap { Int($0) }
        try #require(!pages.isEmpty, "sqlite3 lists no pages of \(name) in \(path): \(shell.output())")
        return pages
    }

    /// The R*Tree node table: overwrites there leave every b-tree well formed, so `PRAGMA quick_check` passes, while the
    /// spatial index no longer matches its table (the damage the whole-file check exists to find).
    static let spatialIndexNodes = "idx_flyers_geom_node"

    /// What SQLite's own shell says of the file with `PRAGMA quick_check`.
    static func quickCheck(_ path: String) throws -> String {
        try SearchIndexDamageTests.sqlite(path, "PRAGMA quick_check")
    }

    /// Launches `meridian serve` on `database` with `consumers` on a port the kernel chooses (the caller stops it, and
    /// reads the port from its log with `MeridianBinary.listeningPort`).
    static func launch(_ database: String, consumers: [String] = ["flyers"], in directory: URL) throws -> ManagedProcess
    {
        let config = directory.appendingPathComponent("serve.yaml")
        try
            "http:\n  port: 0\nstore:\n  path: \(database)\nconsumers:\n\(consumers.map { "  - type: \($0)\n" }.joined())"
            .write(to: config, atomically: true, encoding: .utf8)
        return try ManagedProcess(MeridianBinary.path, ["serve", "--config", config.path], currentDirectory: directory)
    }

    /// Starts `meridian serve` with only the flyers consumer on `database` and returns whether it started
    /// (then stopped again, once its background check said what it found) and its output.
    static func serve(_ database: String, in directory: URL) async throws -> (
        started: Bool, status: Int32?, output: String
    ) {
        let process = try launch(database, in: directory)
        defer { process.stop() }
        try await ManagedProcess.waitUntil(timeout: 60, "meridian serve to listen and check the file, or exit") {
            !process.isRunning
                || (process.output().contains("listening on http") && process.output().contains("store check:"))
        }
        let started = process.isRunning
        process.stop()
        return (started, started ? nil : process.exitStatus, process.output())
    }

    @Test("ten seeded overwrites: refused with what to do, or served unchanged")
    func seededOverwrites() async throws {
        let directory = try TestData.temporaryDirectory("damaged-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (original, export) = try Self.makeDatabase(in: directory)
        let sound = try MeridianBinary.run(["store", "check", "--db", original])
        #expect(sound.status == 0 && sound.stdout.contains(": ok"), "\(sound.stdout)\(sound.stderr)")
        var refused = 0
        var missedByQuickCheck = 0
        // Ten overwrites anywhere, then three inside the spatial index's nodes (the kind quick_check misses: a third of
        // the file is the stored search index, which random offsets mostly hit and which is rebuilt when damaged).
        let overwrites =
            (0..<10).map { (seed: UInt64($0), within: String?.none) }
            + (0..<3).map { (seed: UInt64($0), within: Optional(Self.spatialIndexNodes)) }
        for (seed, within) in overwrites {
            let copy = directory.appendingPathComponent("damaged-\(seed)-\(within ?? "file").sqlite").path
            try FileManager.default.copyItem(atPath: original, toPath: copy)
            try Self.damage(copy, seed: seed, within: within)
            let check = try MeridianBinary.run(["store", "check", "--db", copy])
            let served = try await Self.serve(copy, in: directory)
            let foundLater = served.started && served.output.contains("critical")
            if served.started && !foundLater {
                let now = try MeridianBinary.run(["flyers", "export", "--db", copy])
                // An overwrite inside a flyer's row leaves every b-tree well formed: no check sees it, and reading the
                // row refuses it by name with what to do (never a garbled flyer).
                let rowRefused =
                    now.status != 0 && now.stdout.isEmpty && now.stderr.contains("cannot be read")
                    && now.stderr.contains("delete it and add it again")
                #expect(
                    rowRefused || now.stdout == export,
                    "\(within ?? "file") seed \(seed): the service started on a database whose flyers changed: \(now.stderr)"
                )
                #expect(
                    check.status == 0,
                    "\(within ?? "file") seed \(seed): store check found damage the service did not: \(check.stdout)")
            } else {
                refused += 1
                if try Self.quickCheck(copy) == "ok" { missedByQuickCheck += 1 }
                #expect(foundLater || served.status == 1, "\(within ?? "file") seed \(seed): \(served.output)")
                #expect(
                    served.output.contains(copy) && served.output.contains("meridian store check"),
                    "\(within ?? "file") seed \(seed): \(served.output)")
                #expect(
                    !served.output.contains("meridian: configuration"),
                    "\(within ?? "file") seed \(seed): \(served.output)")
                #expect(
                    check.status == 1,
                    "\(within ?? "file") seed \(seed): store check found nothing: \(check.stdout)\(check.stderr)")
                #expect(
                    check.stdout.contains("damaged: ") && check.stdout.contains("restore the file from a backup")
                        && check.stdout.contains("re-import") && !check.stdout.contains("meridian flyers"),
                    "\(within ?? "file") seed \(seed): \(check.stdout)")
            }
        }
        #expect(refused >= 2, "only \(refused) of \(overwrites.count) overwrites were refused")
        // The damage the start-up check used to miss: an index that no longer matches its table.
        #expect(missedByQuickCheck >= 1, "no overwrite was of the kind quick_check misses (\(refused) refused)")
    }

    @Test(
        "a clean stop stamps the checked file (an import stamps the file it created); the next start skips the check only while nothing else has written the file"
    )
    func stampedRestart() async throws {
        let directory = try TestData.temporaryDirectory("stamped-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _) = try Self.makeDatabase(in: directory)
        let skipped = "is as this service left it after its last check"
        // `meridian flyers import` created the file (sound by construction) and stamped it when it closed it.
        #expect(FileManager.default.fileExists(atPath: path + "-verified"))
        let first = try await Self.serve(path, in: directory)
        #expect(first.started && first.output.contains(skipped), "\(first.output)")
        let second = try await Self.serve(path, in: directory)
        #expect(second.started && second.output.contains(skipped), "\(second.output)")
        // 64 bytes written over with the same bytes: the content is sound, but the file was written.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 8192)
        let bytes = try #require(try handle.read(upToCount: 64))
        try handle.seek(toOffset: 8192)
        try handle.write(contentsOf: bytes)
        try handle.close()
        let rewritten = try await Self.serve(path, in: directory)
        #expect(rewritten.started && !rewritten.output.contains(skipped), "\(rewritten.output)")
        // Damage written through SQLite itself after a clean stop: served while checked, found, writes refused.
        let broken = try ManagedProcess(
            "sqlite3", [path, "UPDATE idx_flyers_geom_node SET data = zeroblob(length(data)) WHERE nodeno = 1"])
        broken.waitUntilExit()
        let damaged = try await Self.serve(path, in: directory)
        #expect(
            damaged.started && damaged.output.contains("critical") && damaged.output.contains("writes are refused"),
            "\(damaged.output)")
        #expect(damaged.output.contains(path) && damaged.output.contains("meridian store check"), "\(damaged.output)")
    }

    @Test(
        "damage the stamp cannot show (bits flipped on the disk after a clean stop) is found by the background check: /health says damaged, writes get 503"
    )
    func damageBehindTheStamp() async throws {
        let directory = try TestData.temporaryDirectory("damage-behind-stamp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (original, _) = try Self.makeDatabase(in: directory)
        // An overwrite the file still opens with (quick_check passes) but the whole-file check finds.
        var damaged: String?
        for seed in UInt64(0)..<10 where damaged == nil {
            let copy = directory.appendingPathComponent("damaged-\(seed).sqlite").path
            try FileManager.default.copyItem(atPath: original, toPath: copy)
            try Self.damage(copy, seed: seed, within: Self.spatialIndexNodes)
            let check = try MeridianBinary.run(["store", "check", "--db", copy])
            if check.status == 1, try Self.quickCheck(copy) == "ok" { damaged = copy }
        }
        let path = try #require(damaged, "no seeded overwrite of the kind quick_check misses")
        #expect(VerifiedStamp.record(path))
        let process = try Self.launch(path, consumers: ["flyers", "run-tracker"], in: directory)
        defer { process.stop() }
        try await ManagedProcess.waitUntil(
            timeout: 60, "meridian serve to listen and check the store in the background"
        ) {
            !process.isRunning
                || (process.output().contains("listening on http") && process.output().contains("store check:"))
        }
        let output = process.output()
        try #require(process.isRunning, "\(output)")
        #expect(
            output.contains("as this service left it") && output.contains("critical") && output.contains(path)
                && output.contains("meridian store check") && output.contains("writes are refused"), "\(output)")
        let client = try ServedInstance.client(from: process.output())
        #expect(try await client.request("GET", "/health").json()["status"] as? String == "damaged")
        let feature =
            #"{"type": "Feature", "id": "probe", "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}, "properties": {"title": "Probe"}}"#
        #expect(try await client.request("POST", "/v1/flyers", body: Data(feature.utf8)).status == 503)
        let run = try await client.request("POST", "/v1/runs", body: Data(#"{"name": "Probe"}"#.utf8))
        #expect(run.status == 503 && run.text.contains("database_unavailable"), "\(run.status) \(run.text)")
        process.stop()
        #expect(
            !FileManager.default.fileExists(atPath: VerifiedStamp.path(for: path)),
            "a file found damaged keeps no stamp")
    }

    @Test("a damaged spatial index is named by store check and what it belongs to")
    func damagedRTree() throws {
        let directory = try TestData.temporaryDirectory("damaged-rtree")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _) = try Self.makeDatabase(in: directory)
        // The R*Tree's root node is emptied: its rowid and parent tables no longer match the tree.
        let broken = try ManagedProcess(
            "sqlite3", [path, "UPDATE idx_flyers_geom_node SET data = zeroblob(length(data)) WHERE nodeno = 1"])
        broken.waitUntilExit()
        let check = try MeridianBinary.run(["store", "check", "--db", path])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("rtreecheck idx_flyers_geom: "), "\(check.stdout)")
        #expect(
            check.stdout.contains("damaged: flyers (spatial index idx_flyers_geom of flyers.geom)"), "\(check.stdout)")
    }

    @Test("store check of a missing file says so and creates nothing")
    func missingFile() throws {
        let result = try MeridianBinary.run(["store", "check", "--db", "/nonexistent/x.sqlite"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("/nonexistent/x.sqlite") && result.stderr.contains("no such file"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/x.sqlite"))
    }
}
