import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the stored flyers in id order: title, category, where and when they are valid.",
            discussion: "flyers near lists them nearest first; flyers export writes every flyer as GeoJSON or CSV."
        )

        @OptionGroup var store: StoreLocationOptions

        @Option(help: "Only flyers of this category.")
        var category: String?

        @Option(help: "Most flyers to show (1...10000).")
        var limit = 100

        @Flag(help: "Print the flyers shown as a GeoJSON FeatureCollection.")
        var json = false

        func run() async throws {
            try await reportingFailures {
                guard (1...10_000).contains(limit) else { throw CommandFailure("--limit \(limit) is outside 1...10000", code: 2) }
                var shown: [Flyer] = []
                var total = 0
                do {
                    try await store.withFlyerStore { repository in
                        try await repository.forEach { flyer in
                            guard category == nil || flyer.category == category else { return }
                            total += 1
                            if shown.count < limit { shown.append(flyer) }
                        }
                    }
                } catch let error as FlyerStoreError {
                    throw CommandFailure(error.description)
                }
                if json {
                    var text = ""
                    GeoJSONFlyers.write(shown, to: { text += $0 })
                    return print(text)
                }
                guard !shown.isEmpty else { return print(category == nil ? "No flyers." : "No flyers of category '\(category ?? "")'.") }
                let rows = [["id", "title", "category", "where", "valid"]] + shown.map(Self.row)
                let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
                for row in rows {
                    print(row.enumerated().map { column, text in
                        column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    }.joined(separator: "  "))
                }
                if total > shown.count {
                    print("\(Counted.string(total - shown.count, "more flyer", "more flyers")): raise --limit, or write them all with flyers export")
                }
            }
        }

        static func row(_ flyer: Flyer) -> [String] {
            let place: String
            switch flyer.geometry {
            case .point(let point):
                place = "\(NumberText.trimmed(point.latitude, decimals: 6)),\(NumberText.trimmed(point.longitude, decimals: 6))"
            case .polygon, .multiPolygon:
                place = "area"
            }
            let from = flyer.validFrom.map { "from \(ISO8601.string(from: $0))" }
            let until = flyer.validUntil.map { "until \(ISO8601.string(from: $0))" }
            let valid = [from, until].compactMap { $0 }.joined(separator: " ")
            return [flyer.id, flyer.title, flyer.category ?? "", place, valid.isEmpty ? "always" : valid]
        }
    }
}
