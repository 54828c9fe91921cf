import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

extension FlyersCommand {
    /// `meridian flyers list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
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
                guard (1...10_000).contains(limit) else {
                    throw CommandFailure("--limit \(limit) is outside 1...10000", code: 2)
                }
                let timeZone = try store.timeZone()
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
                guard !shown.isEmpty else {
                    return print(category == nil ? "No flyers." : "No flyers of category '\(category ?? "")'.")
                }
                let rows =
                    [["id", "title", "category", "where", "valid (\(timeZone.identifier))"]]
                    + shown.map { Self.row($0, timeZone: timeZone) }
                for line in TerminalText.table(rows) { print(line) }
                if total > shown.count {
                    print(
                        "\(Counted.string(total - shown.count, "more flyer", "more flyers")): raise --limit, or write them all with flyers export"
                    )
                }
            }
        }

        /// Titles and categories longer than this many terminal cells are shortened in the table.
        static let titleWidth = 40
        static let categoryWidth = 20

        /// One flyer's cells; validity in `timeZone`, as a bare day where a bound is a whole day's start or end.
        static func row(_ flyer: Flyer, timeZone: TimeZone) -> [String] {
            let place: String
            switch flyer.geometry {
            case .point(let point):
                place =
                    "\(NumberText.trimmed(point.latitude, decimals: 6)),\(NumberText.trimmed(point.longitude, decimals: 6))"
            case .polygon, .multiPolygon:
                place = "area"
            }
            let from = flyer.validFrom.map { "from \(moment($0, dayEnd: false, in: timeZone))" }
            let until = flyer.validUntil.map { "until \(moment($0, dayEnd: true, in: timeZone))" }
            let valid = [from, until].compactMap { $0 }.joined(separator: " ")
            return [
                flyer.id, TerminalText.shortened(flyer.title, to: titleWidth),
                TerminalText.shortened(flyer.category ?? "", to: categoryWidth), place, valid.isEmpty ? "always" : valid
            ]
        }

        /// `2030-12-31` when `date` begins (or, with `dayEnd`, ends) a day in `zone`, else `2030-12-31 13:00`.
        static func moment(_ date: Date, dayEnd: Bool, in zone: TimeZone) -> String {
            let day = LocalTime.day(date, in: zone)
            if let bounds = LocalDay.bounds(of: day, in: zone),
                abs((dayEnd ? bounds.end.addingTimeInterval(-0.001) : bounds.start).timeIntervalSince(date)) < 0.0005
            {
                return day
            }
            return LocalTime.minute(date, in: zone)
        }
    }
}
