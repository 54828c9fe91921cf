import FlyerProximity
import GPSDProvider
import MapLinks
import MeridianCore
import MeridianStore
import NMEASerialProvider
import PhoneFeedProvider
import ReplayProvider
import RunTracker

/// Every plugin that ships with Meridian. Adding a plugin means adding its line here.
enum StandardPlugins {
    static let registry: PluginRegistry = {
        var registry = PluginRegistry()
        registry.register(NMEASerialProvider.registration)
        registry.register(GPSDProvider.registration)
        registry.register(ReplayProvider.registration)
        registry.register(PhoneFeedProvider.registration)
        registry.register(RunTrackerPlugin.registration)
        registry.register(FlyerPlugin.registration)
        registry.register(MapLinksPlugin.registration)
        return registry
    }()

    /// Every table schema in the order its migrations must run (`meridian store migrate`).
    static let schemas: [PluginSchema] = [Store.schema, RunSchema.schema, RunHistorySchema.schema, FlyerSchema.schema]
}
