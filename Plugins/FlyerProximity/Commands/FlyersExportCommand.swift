import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers export`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every flyer as GeoJSON or CSV (points only), in id order.")

        @OptionGroup var store: StoreLocationOptions

        @Option(help: "geojson or csv (default: from --output, else geojson).")
        var format: FileFormat?

        @Option(name: .shortAndLong, help: "Output file (default: standard output).")
        var output: String?

        func run() async throws {
            try await reportingFailures {
                let format = try OutputFormat.choose(
                    given: format, output: output, extensions: FileFormat.extensions, fallback: .geojson)
                let flyers: [Flyer]
                do {
                    flyers = try await store.withFlyerStore { try await $0.all() }
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                var text = ""
                let append = { (chunk: String) in text += chunk }
                switch format {
                case .geojson:
                    GeoJSONFlyers.write(flyers, to: append)
                case .csv:
                    do {
                        try CSVFlyers.write(flyers, to: append)
                    } catch let error as FlyerInputError {
                        throw CommandFailure(error.description)
                    }
                }
                if let output {
                    do {
                        try Data(text.utf8).write(to: URL(fileURLWithPath: output))
                    } catch {
                        throw CommandFailure("\(output): cannot write the file: \(error.localizedDescription)")
                    }
                } else {
                    var text = text
                    try text.withUTF8 { try Standard.output(UnsafeRawBufferPointer($0)) }
                }
            }
        }
    }
}
