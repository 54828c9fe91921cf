import Foundation
import MeridianTesting
import Testing

@Suite("meridian plugin commands")
struct PluginCommandsTests {
    @Test("the shell's commands and every plugin's are subcommands of meridian")
    func listed() throws {
        let result = try MeridianBinary.run(["--help"])
        #expect(result.status == 0)
        for command in [
            "serve", "config", "plugins", "distance", "format", "gpsd", "replay", "runs", "flyers", "maplink"
        ] {
            #expect(result.stdout.contains("\n  \(command) "), "missing \(command)")
        }
    }

    @Test("maplink --flyer finds flyers through what the flyers plugin offers commands")
    func maplinkFlyer() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("flyers.sqlite").path
        let add = try MeridianBinary.run([
            "flyers", "add", "--title", "Lost cat", "--at", "48.85,2.35", "--id", "cat", "--db", db
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let link = try MeridianBinary.run([
            "maplink", "--flyer", "cat", "--mode", "show", "--style", "apple", "--db", db
        ])
        #expect(link.status == 0, "\(link.stderr)")
        #expect(link.stdout == "https://maps.apple.com/place?coordinate=48.85,2.35&name=Lost%20cat\n")
        let missing = try MeridianBinary.run(["maplink", "--flyer", "dog", "--db", db])
        #expect(missing.status == 1, "not found is a failure, not bad usage")
        #expect(missing.stderr.contains("no flyer with id 'dog'"), "\(missing.stderr)")
    }
}
