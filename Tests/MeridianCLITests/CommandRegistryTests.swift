import ArgumentParser
import MeridianCLI
import MeridianCore
import MeridianTesting
import Testing

@Suite("Command registry: plugins' commands beside the plugins")
struct CommandRegistryTests {
    private struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "watch")
    }
    private struct Tracks: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tracks")
    }
    private struct Links: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "links")
    }

    private enum OfferedKey: ResourceKey {
        typealias Value = String
    }

    /// Runs with what it was given, and says it.
    private struct Reader: ResourceUsingCommand {
        static let seen = Locked<String?>(nil)

        func run(with resources: Resources) async throws {
            Self.seen.withLock { $0 = resources[OfferedKey.self] ?? "nothing" }
        }
    }

    private static func tracks() -> ConsumerType {
        ConsumerType(type: "tracks", summary: "", options: []) { _, _ in RecordingConsumer(id: "tracks") }
    }

    @Test("commands come providers first, each kind in registration order; a re-registration replaces them")
    func commandOrder() {
        var registry = CommandRegistry()
        registry.register(Self.tracks(), commands: PluginCommands([Tracks.self]))
        registry.register(
            ProviderType(type: "watch", summary: "", options: []) { _, context in ScriptedProvider(context: context) },
            commands: PluginCommands([Watch.self]))
        registry.register(
            ConsumerType(type: "links", summary: "", options: []) { _, _ in RecordingConsumer(id: "links") },
            commands: PluginCommands([Links.self]))
        registry.register(ScriptedProvider.registration())
        #expect(registry.commands.map { $0.configuration.commandName } == ["watch", "tracks", "links"])
        #expect(registry.commands(ofConsumer: "tracks").map { $0.configuration.commandName } == ["tracks"])
        #expect(registry.commands(ofProvider: "tracks").isEmpty)
        #expect(registry.plugins.providerTypes.map(\.type) == ["watch", "scripted"])

        registry.register(Self.tracks())
        #expect(registry.commands.map { $0.configuration.commandName } == ["watch", "links"])
    }

    @Test("each plugin offers other plugins' commands what it has, in new resources each time")
    func offers() {
        var registry = CommandRegistry()
        registry.register(ScriptedProvider.registration())
        registry.register(Self.tracks(), commands: PluginCommands { $0[OfferedKey.self] = "offered" })
        let resources = registry.offers()
        #expect(resources[OfferedKey.self] == "offered")
        resources[OfferedKey.self] = "changed"
        #expect(registry.offers()[OfferedKey.self] == "offered")
    }

    @Test("a resource-using command runs with the resources it is handed, and with none on its own")
    func resourceUsingCommand() async throws {
        var registry = CommandRegistry()
        registry.register(Self.tracks(), commands: PluginCommands([Reader.self]) { $0[OfferedKey.self] = "offered" })
        let command = try #require(try registry.commands.first?.parseAsRoot([]) as? any ResourceUsingCommand)
        try await command.run(with: registry.offers())
        #expect(Reader.seen.value == "offered")
        try await Reader().run()
        #expect(Reader.seen.value == "nothing")
    }
}
