import ArgumentParser
import MeridianCore
import MeridianTesting
import Testing

@Suite("Registry: plugins' commands")
struct RegistryCommandsTests {
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

    @Test("commands come providers first, each kind in registration order; a re-registration replaces them")
    func commandOrder() {
        var registry = PluginRegistry()
        registry.register(ConsumerType(type: "tracks", summary: "", options: [], commands: [Tracks.self]) { _, _ in RecordingConsumer(id: "tracks") })
        registry.register(ProviderType(type: "watch", summary: "", options: [], commands: [Watch.self]) { _, context in
            ScriptedProvider(context: context)
        })
        registry.register(ConsumerType(type: "links", summary: "", options: [], commands: [Links.self]) { _, _ in RecordingConsumer(id: "links") })
        registry.register(ScriptedProvider.registration())
        #expect(registry.commands.map { $0.configuration.commandName } == ["watch", "tracks", "links"])

        registry.register(ConsumerType(type: "tracks", summary: "", options: []) { _, _ in RecordingConsumer(id: "tracks") })
        #expect(registry.commands.map { $0.configuration.commandName } == ["watch", "links"])
    }

    @Test("each plugin offers other plugins' commands what it has; plugins without an offer leave the resources alone")
    func offers() {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        registry.register(ConsumerType(type: "offering", summary: "", options: [], offerToCommands: { $0[OfferedKey.self] = "offered" }) { _, _ in
            RecordingConsumer(id: "offering")
        })
        let resources = Resources()
        #expect(resources[OfferedKey.self] == nil)
        registry.offerToCommands(resources)
        #expect(resources[OfferedKey.self] == "offered")
    }
}
