import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers import FILE`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Import a GeoJSON FeatureCollection or a CSV file in one transaction (existing ids are replaced).",
            discussion:
                "CSV header: \(CSVFlyers.header.joined(separator: ",")). Any invalid feature or row rejects the whole file."
        )

        @OptionGroup var store: StoreLocationOptions

        @Argument(help: "The file to import (.geojson, .json or .csv).")
        var file: String

        @Option(help: "geojson or csv (default: from the file name).")
        var format: FileFormat?

        @Flag(help: "Print {\"imported\", \"file\", \"seconds\"} as JSON.")
        var json = false

        struct Report: Encodable {
            var imported: Int
            var file: String
            var seconds: Double
        }

        func run() async throws {
            try await reportingFailures {
                guard let format = format ?? FileFormat.guess(file) else {
                    throw CommandFailure(
                        "\(file): cannot tell the format from the name; add --format geojson or --format csv", code: 2)
                }
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw CommandFailure("\(file): cannot read the file; check the path and its permissions")
                }
                let timeZone = try store.timeZone()
                let start = DispatchTime.now().uptimeNanoseconds
                let source: any FlyerSource
                if format == .csv {
                    do throws(FlyerInputError) {
                        source = try CSVFlyerReader(data, timeZone: timeZone)
                    } catch {
                        throw inputFailure(error)
                    }
                } else {
                    let read = GeoJSONFlyers.readAll(data, errorLimit: .max, timeZone: timeZone)
                    if let first = read.errors.first { throw inputFailure(first, all: read.errors) }
                    source = FlyerArraySource(read.flyers)
                }
                let imported = try await store.withFlyerStore(creating: true) { repository in
                    let progress = ProgressBar(label: "importing", large: data.count >= 1 << 20)
                    do throws(FlyerStoreError) {
                        let imported = try await repository.write(
                            from: source, mode: .upsert,
                            progress: progress.map { bar in
                                {
                                    bar.update(
                                        fraction: $0.fractionRead,
                                        detail:
                                            "\(Int($0.fractionRead * 100)) % read, \(Counted.string($0.written, "flyer")) written"
                                    )
                                }
                            })
                        progress?.finish()
                        // A service started next reads the search index instead of building it.
                        try await repository.finishBulkWrite()
                        return imported
                    } catch {
                        progress?.finish()
                        if case .invalidInput(let input) = error {
                            // The reader stops at the first bad row; read the rest to list every one.
                            throw inputFailure(
                                input, all: format == .csv ? CSVFlyers.problems(in: data, timeZone: timeZone) : [])
                        }
                        throw CommandFailure("\(file): \(error); nothing was imported")
                    }
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if json {
                    return print(try MeridianJSON.string(Report(imported: imported, file: file, seconds: seconds)))
                }
                print(
                    "imported \(Counted.string(imported, "flyer")) from \(file) in \(NumberText.fixed(seconds, decimals: 2)) s"
                )
            }
        }

        /// The problem that stopped the import, or every problem of the file (`all`), one a line, as the web
        /// upload lists them.
        private func inputFailure(_ first: FlyerInputError, all: [FlyerInputError] = []) -> CommandFailure {
            guard all.count > 1 else {
                var located = first
                located.file = file
                return CommandFailure("\(located); nothing was imported")
            }
            let lines = all.map { "  \($0)" }.joined(separator: "\n")
            return CommandFailure("\(file): \(Counted.string(all.count, "problem")); nothing was imported:\n\(lines)")
        }
    }
}
