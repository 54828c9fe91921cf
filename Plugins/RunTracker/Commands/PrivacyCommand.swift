import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian privacy add|list|remove`: the circles (home, work) cut from every export, picture and map of a run.
struct PrivacyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Privacy zones: places (home, work) cut from every export, picture and map of a run.",
        discussion: """
            Every point of a run inside a zone is left out of GPX, TCX, FIT and GeoJSON exports, SVG pictures and the \
            maps of the pages; distance and the other totals stay those of the whole route. Each zone's cut circle is \
            moved off its real centre and widened by a secret drawn once, so many exports do not average back to the \
            door. Zones can also be configured (run-tracker privacy.zones).
            """,
        subcommands: [PrivacyAddCommand.self, PrivacyListCommand.self, PrivacyRemoveCommand.self])
}

/// `--keep-private` of the commands that show a route.
struct PrivacyFlags: ParsableArguments {
    @Flag(name: .long, help: "Show the whole route, privacy zones included (for the owner's own use).")
    var keepPrivate = false
}

/// `meridian privacy add NAME LAT,LON --radius 300m`.
struct PrivacyAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a privacy zone: a circle around LAT,LON.",
        discussion: "e.g. meridian privacy add home 48.8584,2.2945 --radius 300m (100 m to 10 km)")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The zone's name, e.g. home.") var name: String
    @Option(name: .long, help: "Radius: 300m, 0.5km, 1000ft, 0.3mi or metres (100 m to 10 km).") var radius = "300m"
    @Argument(parsing: .allUnrecognized, help: "The centre, LAT,LON.") var centre: [String] = []

    func run() async throws {
        try await reportingFailures {
            let point = try CoordinateArguments.parse(centre, count: 1...1, expected: "one centre LAT,LON")[0]
            let metres = try DistanceArgument.metres(radius, option: "--radius")
            let (history, units) = try store.open()
            let zone = try await privacyErrors {
                try await history.store.database.write { [name] db in
                    try PrivacyBook.add(name: name, centre: point, radius: metres, in: db)
                }
            }
            if store.json { return try store.printJSON(PrivacyZoneView(zone)) }
            print(
                "added privacy zone \(zone.name): \(DistanceFormat.string(metres: zone.radius, units: units)) around \(Self.text(zone.centre))"
            )
        }
    }

    static func text(_ point: Coordinate) -> String {
        "\(NumberText.trimmed(point.latitude, decimals: 6)),\(NumberText.trimmed(point.longitude, decimals: 6))"
    }
}

/// `meridian privacy list`.
struct PrivacyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the privacy zones (added and configured) with their real centres.")
    @OptionGroup var store: RunsStoreOptions

    func run() async throws {
        try await reportingFailures {
            let (history, units) = try store.open()
            let zones = try await history.store.database.read { db in try PrivacyBook.zones(db) }
            if store.json { return try store.printJSON(zones.map(PrivacyZoneView.init)) }
            if zones.isEmpty { print("No privacy zones; add one with meridian privacy add NAME LAT,LON --radius 300m") }
            for zone in zones {
                print(
                    "\(RunText.pad(zone.name, 16)) \(RunText.pad(PrivacyAddCommand.text(zone.centre), 24)) "
                        + "\(RunText.pad(DistanceFormat.string(metres: zone.radius, units: units), 8)) "
                        + (zone.source == .command ? "added" : "configured"))
            }
        }
    }
}

/// `meridian privacy remove NAME`.
struct PrivacyRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a privacy zone added with 'meridian privacy add'.")
    @OptionGroup var store: RunsStoreOptions
    @Argument(help: "The zone's name.") var name: String

    func run() async throws {
        try await reportingFailures {
            let (history, _) = try store.open()
            try await privacyErrors {
                try await history.store.database.write { [name] db in try PrivacyBook.remove(name: name, in: db) }
            }
            if !store.json { print("removed privacy zone \(name)") }
        }
    }
}

/// A zone as `privacy list --json` prints it (never its secret).
struct PrivacyZoneView: Encodable {
    var name: String
    var center: [Double]
    var radiusM: Double
    var source: String

    init(_ zone: PrivacyZone) {
        name = zone.name
        center = [zone.centre.latitude, zone.centre.longitude]
        radiusM = zone.radius
        source = zone.source.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case name, center
        case radiusM = "radius_m"
        case source
    }
}

/// Runs `body`, turning what a privacy command got wrong into a usage error (exit 2) with its message.
private func privacyErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as PrivacyError {
        if case .unreadable = error { throw CommandFailure(error.description) }
        throw CommandFailure(error.description, code: 2)
    }
}
