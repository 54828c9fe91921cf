import ArgumentParser
import Foundation
import MeridianCLI
import MeridianCore
import MeridianStore

/// `meridian hooks add|list|remove|failed|retry`: the webhooks in the database, which a running service picks up
/// within a second. Hooks of the configuration's `hooks:` are listed too, and changed only in the file.
struct HooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Webhooks: send events (flyer.enter, run.*, record.new, …) to URLs you choose.",
        discussion: "A hook sends the events it takes off this machine, to its URL: only hooks you add exist.",
        subcommands: [Add.self, List.self, Remove.self, Failed.self, Retry.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a webhook (the service picks it up within a second).",
            discussion: """
                Each event is POSTed as JSON {"id", "type", "time", "data"} with X-Meridian-Event-Id and \
                X-Meridian-Signature: sha256=<hex HMAC-SHA256 of the body keyed with the secret>. Without --secret one \
                is made and printed once.
                """)

        @OptionGroup var store: StoreLocationOptions
        @Option(help: "The receiver's http:// or https:// URL (private addresses are fine).") var url: String
        @Option(name: .customLong("event"), help: "An event it takes: flyer.enter, run.*, * (repeat for more).")
        var events: [String]
        @Option(help: "The signing secret (16 characters or more).") var secret: String?
        @Option(help: "A name for the hook (default: from the URL and events).") var id: String?
        @Option(help: "Only flyers of this category (repeat for more).") var category: [String] = []
        @Option(name: .customLong("flyer"), help: "Only this flyer id (repeat for more).") var flyers: [String] = []
        @Option(help: "Only events naming this device (repeat for more).") var device: [String] = []
        @Option(help: "Seconds an event is retried before the dead-letter list.")
        var maxAge: Double = HookSpec.defaultMaxAge
        @Option(help: "Seconds one delivery may take.") var timeout: Double = HookSpec.defaultTimeout
        @Option(
            name: .customLong("ca-file"),
            help: "For an https:// receiver with its own CA or a self-signed certificate: that CA's PEM file.")
        var caFile: String?

        func run() async throws {
            try await reportingFailures {
                let generated = secret == nil
                let filter = HookFilter(
                    category: category.isEmpty ? nil : category, flyerIds: flyers.isEmpty ? nil : flyers,
                    device: device.isEmpty ? nil : device)
                let spec = HookSpec(
                    id: id, url: url, events: events, secret: secret ?? Self.newSecret(),
                    filter: filter.category == nil && filter.flyerIds == nil && filter.device == nil ? nil : filter,
                    maxAge: maxAge, timeout: timeout,
                    caFile: caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
                if let (key, message) = spec.problem {
                    throw CommandFailure(
                        "--\(key.replacingOccurrences(of: "_", with: "-")): \(message)", code: CommandFailure.usage)
                }
                let opened = try store.openStore(try store.loadConfig())
                try HooksCommand.refusals { try opened.database.write { db in try HookTable.add(spec, in: db) } }
                print("added hook \(spec.id): \(spec.events.joined(separator: ", ")) → \(spec.url)")
                if generated { print("secret (shown once; the receiver checks signatures with it): \(spec.secret)") }
                print("Events this hook takes leave this machine for \(spec.url).")
            }
        }

        static func newSecret() -> String {
            (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the webhooks, what waits for each and what failed.")

        @OptionGroup var store: StoreLocationOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            try await reportingFailures {
                let opened = try store.openExistingStore(try store.loadConfig())
                let hooks = try await opened.database.read { db in try HookTable.list(db) }
                if json {
                    print(try MeridianJSON.string(hooks.map(HookTable.Shown.init)))
                    return
                }
                guard !hooks.isEmpty else { return print("no hooks; `meridian hooks add` adds one") }
                for entry in hooks {
                    let spec = entry.spec
                    print(
                        "\(spec.id)  \(spec.url)  events \(spec.events.joined(separator: ","))  secret \(spec.maskedSecret)  [\(entry.source.rawValue)]"
                    )
                    let error = entry.lastError.map { "; last error: \($0)" } ?? ""
                    print("    \(entry.pending) waiting, \(entry.failed) failed\(error)")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a webhook and the events waiting for it.")

        @OptionGroup var store: StoreLocationOptions
        @Argument(help: "The hook's id.") var id: String

        func run() async throws {
            try await reportingFailures {
                let opened = try store.openExistingStore(try store.loadConfig())
                try HooksCommand.refusals { try opened.database.write { db in try HookTable.remove(id, in: db) } }
                print("removed hook \(id)")
            }
        }
    }

    struct Failed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "failed",
            abstract: "List the dead-letter list: events a hook's receiver did not take within its max_age.")

        @OptionGroup var store: StoreLocationOptions
        @Option(help: "Only this hook's.") var hook: String?
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            try await reportingFailures {
                let opened = try store.openExistingStore(try store.loadConfig())
                let failed = try await opened.database.read { [hook] db in
                    try HookDeliveries.deadLetters(hookID: hook, in: db)
                }
                if json { return print(try MeridianJSON.string(failed)) }
                guard !failed.isEmpty else { return print("no failed events") }
                for letter in failed {
                    print(
                        "\(letter.eventId)  \(letter.hookId)  \(letter.type)  \(ISO8601.string(from: letter.time))  \(Counted.string(letter.attempts, "attempt")): \(letter.lastError ?? "")"
                    )
                }
            }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Send dead letters again (the service retries them within a second, with their ids).")

        @OptionGroup var store: StoreLocationOptions
        @Argument(help: "The event id (from `meridian hooks failed`).") var event: String?
        @Flag(help: "Every failed event.") var all = false
        @Option(help: "Only this hook's.") var hook: String?

        func validate() throws {
            guard (event == nil) != all else {
                throw ValidationError("give an event id from `meridian hooks failed`, or --all")
            }
        }

        func run() async throws {
            try await reportingFailures {
                let opened = try store.openExistingStore(try store.loadConfig())
                let count = try await opened.database.write { [event, hook] db in
                    try HookDeliveries.retry(eventID: event, hookID: hook, in: db)
                }
                if let event, count == 0 {
                    throw CommandFailure(
                        "event \(event) is not in the dead-letter list; `meridian hooks failed` lists it")
                }
                print("\(Counted.string(count, "event")) queued again")
            }
        }
    }

    /// Runs `body`, saying the hook table's refusals as failures.
    static func refusals(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let refusal as HookTable.Refusal {
            throw CommandFailure(refusal.description)
        }
    }
}
