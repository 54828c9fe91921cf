import ArgumentParser
import Foundation

/// `meridian flyers`: import, export, add, get, delete and search local flyers in the store.
struct FlyersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyers",
        abstract: "Manage and search local flyers (points and areas) in the SpatiaLite store or PostGIS.",
        discussion: """
            The store is --db (a SpatiaLite file or postgres://user[:password]@host[:port]/dbname), else MERIDIAN_FLYERS_DB, \
            else the flyers consumer's database option, else MERIDIAN_DB, else store.path of the configuration (--config, \
            MERIDIAN_CONFIG or Config/meridian.yaml). Examples:
              meridian flyers import flyers.geojson
              meridian flyers near 48.8584,2.2945 --radius 2km --limit 5
              meridian flyers within district.geojson --limit 50
              meridian flyers export --format csv > flyers.csv
            """,
        subcommands: [Import.self, Export.self, Add.self, Get.self, Delete.self, List.self, Near.self, Within.self]
    )

    /// The file formats of import and export.
    enum FileFormat: String, ExpressibleByArgument, CaseIterable {
        case geojson, csv

        /// The file name endings of each format.
        static let extensions: [String: FileFormat] = ["csv": .csv, "geojson": .geojson, "json": .geojson]

        static func guess(_ path: String) -> FileFormat? {
            extensions[URL(fileURLWithPath: path).pathExtension.lowercased()]
        }
    }
}
