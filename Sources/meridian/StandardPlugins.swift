import FlyerProximity
import GPSDProvider
import GPSDServer
import MapLinks
import MeridianCLI
import MeridianCore
import MeridianStore
import NMEASerialProvider
import PhoneFeedProvider
import ReplayProvider
import RunTracker

/// Every plugin that ships with Meridian. Adding a plugin means adding its line here, with its commands when it has any.
enum StandardPlugins {
    /// The plugins with their `meridian` subcommands.
    static let commandLine: CommandRegistry = {
        var registry = CommandRegistry()
        registry.register(NMEASerialProvider.registration)
        registry.register(GPSDProvider.registration, commands: GPSDProvider.commandLine)
        registry.register(ReplayProvider.registration, commands: ReplayProvider.commandLine)
        registry.register(PhoneFeedProvider.registration, commands: PhoneFeedProvider.commandLine)
        registry.register(RunTrackerPlugin.registration, commands: RunTrackerPlugin.commandLine)
        registry.register(FlyerPlugin.registration, commands: FlyerPlugin.commandLine)
        registry.register(MapLinksPlugin.registration, commands: MapLinksPlugin.commandLine)
        registry.register(GPSDServer.registration)
        return registry
    }()

    /// The plugins, as the service builds them.
    static let registry = commandLine.plugins

    /// Every table schema in the order its migrations must run (`meridian store migrate`; `meridian serve` applies them
    /// all when it opens the store, whichever plugins the configuration enables).
    static let schemas: [PluginSchema] =
        [Store.schema] + RunTrackerSchema.schemas + [FlyerSchema.schema, DeviceStore.schema]
}
