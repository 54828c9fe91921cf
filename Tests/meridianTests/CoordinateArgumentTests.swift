import Foundation
import MeridianTesting
import Testing

/// Every LAT,LON argument and option takes a leading minus as typed (southern and western points).
@Suite("negative coordinates on the command line")
struct CoordinateArgumentTests {
    @Test("flyers add --at and flyers near take southern and western points")
    func flyers() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("flyers.sqlite").path
        let add = try MeridianBinary.run([
            "flyers", "add", "--title", "Opera House", "--at", "-33.8568,151.2153", "--id", "opera", "--db", db
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let near = try MeridianBinary.run(["flyers", "near", "-33.87,151.21", "--radius", "5km", "--db", db])
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.contains("Opera House") && near.stdout.contains("(opera)"), "\(near.stdout)")
        let west = try MeridianBinary.run(["flyers", "near", "-33.87,-151.21", "--db", db, "--json"])
        #expect(west.status == 0, "\(west.stderr)")
    }

    @Test(
        "an unknown option among the points is still named as one, with exit 2",
        arguments: [
            ["flyers", "near", "-33.87,151.21", "--radus", "2km"],
            ["distance", "-33.87,151.21", "0,0", "--jsn"]
        ])
    func unknownOption(arguments: [String]) throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try MeridianBinary.run(
            arguments + (arguments[0] == "flyers" ? ["--db", directory.appendingPathComponent("f.sqlite").path] : []))
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option '--"), "\(result.stderr)")
    }

    @Test("maplink --from, --to and --near keep taking negative points")
    func maplink() throws {
        let result = try MeridianBinary.run([
            "maplink", "--to", "-33.8568,151.2153", "--from", "-34,150.5", "--style", "google"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("origin=-34,150.5&destination=-33.8568,151.2153"), "\(result.stdout)")
    }
}
