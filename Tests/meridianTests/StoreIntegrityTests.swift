import Foundation
import MeridianTesting
import Testing

/// A flyer database damaged by seeded 64-byte overwrites: `meridian store check` says what is damaged and what to do,
/// and `meridian serve` either refuses it with the same advice (exit 1, no "configuration:" prefix), or starts and its
/// background check reports the damage (log, `/health`) and refuses writes, or serves exactly the flyers that were
/// imported, never a garbled one.
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
            csv += "f\(index),Flyer number \(index),\(latitude),\(longitude),\(categories[index % 3]),\(index) Rue de la Paix\n"
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

    /// Overwrites 64 bytes at an offset chosen by `seed` with bytes chosen by it.
    static func damage(_ path: String, seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: random.next() % (size - 64))
        handle.write(Data((0..<8).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }))
    }

    /// What SQLite's own shell says of the file with `PRAGMA quick_check`.
    static func quickCheck(_ path: String) throws -> String {
        let shell = try ManagedProcess("sqlite3", [path, "PRAGMA quick_check"])
        shell.waitUntilExit()
        return shell.output().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What `meridian serve` did with a database.
    enum Served {
        /// It exited before listening.
        case refused(status: Int32?, output: String)
        /// It listened, and its background check found the file sound.
        case sound(output: String)
        /// It listened, and its background check reported damage: `/health`'s status and a write's status then.
        case damaged(output: String, health: String?, write: Int)
    }

    /// Starts `meridian serve` with only the flyers consumer on `database`, waits (at most 60 s) for it to listen and
    /// for its background check to finish, and says what it did; it is stopped again.
    static func serve(_ database: String, in directory: URL) async throws -> Served {
        let config = directory.appendingPathComponent("serve.yaml")
        let port = try FreePort.next()
        try "http:\n  port: \(port)\nstore:\n  path: \(database)\nlog_level: info\nconsumers:\n  - type: flyers\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let process = try ManagedProcess(MeridianBinary.path, ["serve", "--config", config.path], currentDirectory: directory)
        defer { process.stop() }
        try await ManagedProcess.waitUntil(timeout: 60, "meridian serve to listen and check the store, or exit") {
            !process.isRunning || (process.output().contains("listening on") && process.output().contains("store check:"))
        }
        guard process.isRunning else {
            process.stop()
            return .refused(status: process.exitStatus, output: process.output())
        }
        if process.output().contains("is sound") { return .sound(output: process.output()) }
        let client = HTTPTestClient(port: port)
        let health = try await client.request("GET", "/health").json()["status"] as? String
        let feature = #"{"type": "Feature", "id": "probe", "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}, "properties": {"title": "Probe"}}"#
        let write = try await client.request("POST", "/v1/flyers", body: Data(feature.utf8)).status
        return .damaged(output: process.output(), health: health, write: write)
    }

    @Test("ten seeded overwrites: refused with what to do, or reported by the background check with writes refused, or served unchanged")
    func seededOverwrites() async throws {
        let directory = try TestData.temporaryDirectory("damaged-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (original, export) = try Self.makeDatabase(in: directory)
        let sound = try MeridianBinary.run(["store", "check", "--db", original])
        #expect(sound.status == 0 && sound.stdout.contains(": ok"), "\(sound.stdout)\(sound.stderr)")
        var detected = 0
        var missedByQuickCheck = 0
        for seed in UInt64(0)..<10 {
            let copy = directory.appendingPathComponent("damaged-\(seed).sqlite").path
            try FileManager.default.copyItem(atPath: original, toPath: copy)
            try Self.damage(copy, seed: seed)
            let check = try MeridianBinary.run(["store", "check", "--db", copy])
            let quick = try Self.quickCheck(copy)
            switch try await Self.serve(copy, in: directory) {
            case .sound:
                let now = try MeridianBinary.run(["flyers", "export", "--db", copy])
                #expect(now.stdout == export, "seed \(seed): the service found sound a database whose flyers changed")
                #expect(check.status == 0, "seed \(seed): store check found damage the service did not: \(check.stdout)")
                continue
            case .refused(let status, let output):
                #expect(status == 1, "seed \(seed): \(output)")
                #expect(output.contains(copy) && output.contains("meridian store check"), "seed \(seed): \(output)")
                #expect(!output.contains("meridian: configuration"), "seed \(seed): \(output)")
            case .damaged(let output, let health, let write):
                #expect(output.contains("critical") && output.contains(copy) && output.contains("meridian store check")
                        && output.contains("writes are refused"), "seed \(seed): \(output)")
                #expect(health == "damaged", "seed \(seed): /health says \(health ?? "nothing")")
                #expect(write == 503, "seed \(seed): a write was answered \(write) on a damaged database")
            }
            detected += 1
            if quick == "ok" { missedByQuickCheck += 1 }
            #expect(check.status == 1, "seed \(seed): store check found nothing: \(check.stdout)\(check.stderr)")
            #expect(check.stdout.contains("damaged: ") && check.stdout.contains("restore the file from a backup")
                    && check.stdout.contains("re-import"), "seed \(seed): \(check.stdout)")
        }
        #expect(detected >= 2, "only \(detected) of 10 overwrites were detected")
        // The damage a quick check misses (an index that no longer matches its table) is found too.
        #expect(missedByQuickCheck >= 1, "no overwrite was of the kind quick_check misses (\(detected) detected)")
    }

    @Test("a damaged spatial index is named by store check and what it belongs to")
    func damagedRTree() throws {
        let directory = try TestData.temporaryDirectory("damaged-rtree")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, _) = try Self.makeDatabase(in: directory)
        // The R*Tree's root node is emptied: its rowid and parent tables no longer match the tree.
        let broken = try ManagedProcess("sqlite3", [path, "UPDATE idx_flyers_geom_node SET data = zeroblob(length(data)) WHERE nodeno = 1"])
        broken.waitUntilExit()
        let check = try MeridianBinary.run(["store", "check", "--db", path])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("rtreecheck idx_flyers_geom: "), "\(check.stdout)")
        #expect(check.stdout.contains("damaged: flyers (spatial index idx_flyers_geom of flyers.geom)"), "\(check.stdout)")
    }

    @Test("store check of a missing file says so and creates nothing")
    func missingFile() throws {
        let result = try MeridianBinary.run(["store", "check", "--db", "/nonexistent/x.sqlite"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/x.sqlite") && result.stderr.contains("no such file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/x.sqlite"))
    }
}
