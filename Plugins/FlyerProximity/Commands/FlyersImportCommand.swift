import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers import FILE`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a GeoJSON FeatureCollection or a CSV file in one transaction (existing ids are replaced).",
            discussion: "CSV header: \(CSVFlyers.header.joined(separator: ",")). Any invalid feature or row rejects the whole file."
        )

        @OptionGroup var store: StoreLocationOptions

        @Argument(help: "The file to import (.geojson, .json or .csv).")
        var file: String

        @Option(help: "geojson or csv (default: from the file name).")
        var format: FileFormat?

        func run() async throws {
            try await reportingFailures {
                guard let format = format ?? FileFormat.guess(file) else {
                    throw CommandFailure("\(file): cannot tell the format from the name; add --format geojson or --format csv", code: 2)
                }
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw CommandFailure("\(file): cannot read the file; check the path and its permissions")
                }
                let start = DispatchTime.now().uptimeNanoseconds
                let source: any FlyerSource
                do throws(FlyerInputError) {
                    source = format == .csv ? try CSVFlyerReader(data) : FlyerArraySource(try GeoJSONFlyers.read(data))
                } catch {
                    throw inputFailure(error)
                }
                let repository = try store.repository()
                let progress = ProgressBar(label: "importing", large: data.count >= 1 << 20)
                let imported: Int
                do throws(FlyerStoreError) {
                    imported = try repository.write(from: source, mode: .upsert, progress: progress.map { bar in { bar.update($0) } })
                } catch {
                    progress?.finish()
                    if case .invalidInput(let input) = error { throw inputFailure(input) }
                    throw CommandFailure("\(file): \(error); nothing was imported")
                }
                progress?.finish()
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                print("imported \(imported) flyers from \(file) in \(NumberText.fixed(seconds, decimals: 2)) s")
            }
        }

        private func inputFailure(_ error: FlyerInputError) -> CommandFailure {
            var located = error
            located.file = file
            return CommandFailure("\(located); nothing was imported")
        }
    }
}

/// A progress bar on standard error, shown only when it is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let label: String

    /// Nil when standard error is not a terminal or the job is too small to need one.
    init?(label: String, large: Bool) {
        guard isatty(STDERR_FILENO) == 1, large else { return nil }
        self.label = label
    }

    func update(_ progress: FlyerRepository.Progress) {
        let width = 30
        let filled = min(width, Int(Double(width) * progress.fractionRead))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(progress.fractionRead * 100)) % read, \(progress.written) flyers written".utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
