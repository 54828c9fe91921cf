import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore

/// `meridian devices …`: the phones allowed to post positions, and their keys.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Register phones that post their positions (OwnTracks, Traccar Client/OsmAnd, Overland, GPSLogger).",
        subcommands: [
            DevicesAddCommand.self, DevicesListCommand.self, DevicesRemoveCommand.self, DevicesRotateCommand.self
        ])
}

/// Where the device commands find the database, and the URL the phones reach the server at.
struct DevicesOptions: ParsableArguments {
    @OptionGroup var location: StoreLocationOptions

    @Option(
        name: .long,
        help: "The URL phones reach this server at (default http://<http.host>:<http.port> of the configuration).")
    var url: String?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    /// The device table (created when needed) and the server's base URL.
    func open(create: Bool) throws -> (DeviceStore, String) {
        let config = try location.loadConfig()
        let store = create ? try location.openStore(config) : try location.openExistingStore(config)
        let http = config?.http ?? HTTPSettings()
        return (try DeviceStore(store: store), url ?? "http://\(http.host):\(http.port)")
    }

    func printJSON<T: Encodable>(_ value: T) throws {
        print(String(decoding: try MeridianJSON.makeEncoder(pretty: true).encode(value), as: UTF8.self))
    }

    /// The key and where to type it, as text or JSON; for OwnTracks also the set-up link and its QR code.
    func show(name: String, key: String, protocol feedProtocol: FeedProtocol, base: String) throws {
        let credentials = DeviceRoutes.Credentials(id: name, key: key, base: base)
        if json { return try printJSON(credentials) }
        print("Device '\(name)': key \(key) (shown only now; meridian devices rotate '\(name)' gives a new one)")
        credentials.urls.instructions(for: feedProtocol, name: name, key: key).forEach { print($0) }
        guard feedProtocol == .owntracks, let code = QRCode(bytes: Array(credentials.owntracksConfig.utf8)) else {
            return
        }
        print("Or scan this with the phone's camera (or open the link on the phone) to set OwnTracks up in one step:")
        code.terminalLines().forEach { print($0) }
        print(credentials.owntracksConfig)
    }
}

extension FeedProtocol: ExpressibleByArgument {}

/// Turns device errors into command failures (bad names are usage errors).
private func failing<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as DeviceError {
        throw CommandFailure(error.message, code: error.kind == .invalidName ? CommandFailure.usage : 1)
    }
}

struct DevicesAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Register a phone and print its key and what to type into the app.")
    @OptionGroup var options: DevicesOptions
    @Argument(help: "The device's name (also the OwnTracks user and the Traccar identifier).") var name: String
    @Option(name: .long, help: "The app: \(FeedProtocol.names).") var `protocol`: FeedProtocol = .owntracks

    func run() async throws {
        try await reportingFailures {
            let (devices, base) = try options.open(create: true)
            let key = try failing { try devices.add(name: name, protocol: `protocol`) }
            try options.show(name: name, key: key, protocol: `protocol`, base: base)
        }
    }
}

struct DevicesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List registered phones.")
    @OptionGroup var options: DevicesOptions

    struct Item: Encodable {
        var id: String
        var `protocol`: FeedProtocol
        var createdAt: Date
    }

    func run() async throws {
        try await reportingFailures {
            let (devices, _) = try options.open(create: false)
            let items = try devices.list().map { Item(id: $0.id, protocol: $0.feedProtocol, createdAt: $0.createdAt) }
            if options.json { return try options.printJSON(["devices": items]) }
            if items.isEmpty { print("No devices; register one with meridian devices add NAME.") }
            for item in items {
                print(
                    "\(item.id)\t\(item.protocol.rawValue)\tadded \(ISO8601DateFormatter().string(from: item.createdAt))"
                )
            }
        }
    }
}

struct DevicesRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a phone: its key stops working at once.")
    @OptionGroup var options: DevicesOptions
    @Argument(help: "The device's name.") var name: String

    func run() async throws {
        try await reportingFailures {
            let (devices, _) = try options.open(create: false)
            try failing { try devices.remove(name: name) }
            print("Removed device '\(name)'.")
        }
    }
}

struct DevicesRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate", abstract: "Give a phone a new key; the old one stops working at once.")
    @OptionGroup var options: DevicesOptions
    @Argument(help: "The device's name.") var name: String

    func run() async throws {
        try await reportingFailures {
            let (devices, base) = try options.open(create: false)
            let key = try failing { try devices.rotate(name: name) }
            let feedProtocol = try devices.list().first { $0.id == name }?.feedProtocol ?? .owntracks
            try options.show(name: name, key: key, protocol: feedProtocol, base: base)
        }
    }
}
