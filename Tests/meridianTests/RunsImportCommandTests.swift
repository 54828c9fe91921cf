import Foundation
import MeridianTesting
import Testing

/// `meridian runs import PATH…` through the real binary: a folder of device files imports in one go, a damaged file
/// is reported and the others still import (exit 1), and importing again skips every run as a duplicate.
@Suite("meridian runs import", .serialized)
struct RunsImportCommandTests {
    @Test func aFolderImportsReportsTheDamagedFileAndSkipsDuplicatesTheSecondTime() throws {
        let folder = try TestData.temporaryDirectory("runs-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let activities = folder.appendingPathComponent("activities/2024")
        try FileManager.default.createDirectory(at: activities, withIntermediateDirectories: true)
        for name in [
            "fit/fitparse__garmin-fenix-5-bike.fit", "fit/fitparse__activity-filecrc.fit",
            "fit/sportstracker__Forerunner405-Running_CadenceSensor.tcx", "gpx/sportstracker__bike-tour-gpsies.gpx"
        ] {
            try FileManager.default.copyItem(
                at: TestData.url(name),
                to: activities.appendingPathComponent(URL(fileURLWithPath: name).lastPathComponent))
        }
        // not taken from a folder
        try Data("not an activity".utf8).write(to: activities.appendingPathComponent("notes.txt"))
        let database = folder.appendingPathComponent("runs.sqlite").path

        let first = try MeridianBinary.run([
            "runs", "import", folder.appendingPathComponent("activities").path, "--db", database
        ])
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("imported 3 runs, skipped 0 duplicates, 1 file failed"), "\(first.stdout)")
        #expect(first.stderr.contains("fitparse__activity-filecrc.fit: byte 769: file CRC mismatch"), "\(first.stderr)")
        #expect(!first.stdout.contains("notes.txt") && !first.stderr.contains("notes.txt"))

        let second = try MeridianBinary.run([
            "runs", "import", folder.appendingPathComponent("activities").path, "--db", database, "--json"
        ])
        #expect(second.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect((report["imported"] as? [Any])?.isEmpty == true)
        #expect((report["duplicates"] as? [Any])?.count == 3)
        #expect(
            (report["failed"] as? [[String: Any]])?.first?["file"] as? String
                == activities.appendingPathComponent("fitparse__activity-filecrc.fit").path)

        let forced = try MeridianBinary.run([
            "runs", "import", TestData.url("fit/fitparse__garmin-fenix-5-bike.fit").path,
            "--db", database, "--allow-duplicates", "--activity", "run"
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("imported 1 run, skipped 0 duplicates, 0 files failed"))
    }

    @Test func aMissingPathAndABadActivityAreClearErrors() throws {
        let folder = try TestData.temporaryDirectory("runs-import-errors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("runs.sqlite").path
        let missing = try MeridianBinary.run(["runs", "import", "/no/such/file.fit", "--db", database])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/no/such/file.fit: no such file or folder"))
        let activity = try MeridianBinary.run([
            "runs", "import", TestData.url("fit/fitparse__garmin-fenix-5-bike.fit").path,
            "--activity", "swim", "--db", database
        ])
        #expect(activity.status == 2)
        #expect(activity.stderr.contains("--activity 'swim' is not known"))
    }
}
