import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import RunTracker

/// `meridian privacy add|list|remove` and `meridian runs export|render` run as the real binary on a real watch file
/// (a Fenix 2 run that starts and ends at the same place).
@Suite("Privacy commands of the meridian binary")
struct PrivacyCommandTests {
    static let file = "fit/fitparse__activity-small-fenix2-run.fit"

    /// Runs `meridian ARGUMENTS --db …`; the exit status and everything it printed.
    static func run(_ arguments: [String], db: String) throws -> (status: Int32, output: String) {
        let process = try ManagedProcess(
            MeridianBinary.path, arguments + ["--db", db], currentDirectory: TestData.repositoryRoot)
        process.waitUntilExit()
        return (process.exitStatus ?? -1, process.output())
    }

    @Test(
        "a zone at the run's start and end is cut from every export and the picture, with its time and distance; --keep-private keeps it"
    )
    func zoneAtTheStart() throws {
        let fixture = try HistoryFixture()
        defer { fixture.remove() }
        let recording = try #require(try ActivityFileReader.read(contentsOf: TestData.url(Self.file)).first)
        let stored = try #require(try RunStore(store: fixture.store).importRun(recording, id: "fenix", name: "fenix"))
        let door = try #require(recording.samples.compactMap(\.coordinate).first)
        let db = fixture.store.path
        let near = { (coordinate: Coordinate) in Geodesic.wgs84.distance(coordinate, door) <= 300 }

        let add = try Self.run(
            ["privacy", "add", "home", "\(door.latitude),\(door.longitude)", "--radius", "0.3km"], db: db)
        #expect(add.status == 0 && add.output.contains("added privacy zone home: 300 m"), "\(add.output)")
        let list = try Self.run(["privacy", "list", "--json"], db: db)
        let zones = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
        #expect(zones.count == 1 && zones[0]["radius_m"] as? Double == 300 && zones[0]["offset_north_m"] == nil)

        let directory = fixture.temporary.directory
        for format in ExportFormat.allCases where format != .geojson {
            let cut = directory.appendingPathComponent("cut.\(format.fileExtension)").path
            let whole = directory.appendingPathComponent("whole.\(format.fileExtension)").path
            #expect(try Self.run(["runs", "export", "fenix", "-o", cut], db: db).status == 0)
            #expect(try Self.run(["runs", "export", "fenix", "-o", whole, "--keep-private"], db: db).status == 0)
            let shown = try #require(try ActivityFileReader.read(contentsOf: URL(fileURLWithPath: cut)).first)
            let all = try #require(try ActivityFileReader.read(contentsOf: URL(fileURLWithPath: whole)).first)
            #expect(!shown.samples.compactMap(\.coordinate).contains(where: near), "\(format)")
            #expect(all.samples.compactMap(\.coordinate).contains(where: near), "\(format)")
            if format == .fit {
                // The run starts and ends in the zone: the file is its visible stretch, from its first visible
                // record, with that stretch's distance (at least the zone's radius shorter at each end).
                let distances = shown.samples.compactMap(\.distance)
                let visible = try #require(distances.last) - (try #require(distances.first))
                #expect(abs((shown.totals?.distance ?? 0) - visible) < 1, "\(String(describing: shown.totals))")
                #expect(stored.summary.distance - visible > 2 * 300)
                #expect(shown.startTime == shown.samples.first?.time)
                #expect(abs((all.totals?.distance ?? 0) - stored.summary.distance) < 0.01)
                #expect(all.startTime == stored.summary.startedAt)
            }
        }
        let picture = try Self.run(["runs", "render", "fenix"], db: db)
        let wholePicture = try Self.run(["runs", "render", "fenix", "--keep-private"], db: db)
        #expect(picture.status == 0 && picture.output != wholePicture.output)
        for keepPrivate in [false, true] {  // `runs show --json` carries the simplified route
            let show = try Self.run(
                ["runs", "show", "fenix", "--json"] + (keepPrivate ? ["--keep-private"] : []), db: db)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any])
            let route = (json["analysis"] as? [String: Any])?["route"] as? [String: Any]
            let points = try (route?["segments"] as? [[[Double]]] ?? []).joined().map {
                try Coordinate(latitude: $0[0], longitude: $0[1])
            }
            #expect(!points.isEmpty && points.contains(where: near) == keepPrivate, "--keep-private: \(keepPrivate)")
        }

        for bad in [
            ["privacy", "add", "home", "1,2", "--radius", "300m"], ["privacy", "add", "x", "1,2", "--radius", "20m"],
            ["privacy", "add", "x", "1,2", "--radius", "3q"], ["privacy", "add", "x", "91,2"],
            ["privacy", "remove", "nope"]
        ] {
            let answer = try Self.run(bad, db: db)
            #expect(answer.status == 2 && answer.output.contains("meridian: "), "\(bad): \(answer.output)")
        }
        #expect(try Self.run(["privacy", "remove", "home"], db: db).status == 0)
        #expect(try Self.run(["privacy", "list"], db: db).output.contains("No privacy zones"))
    }
}
