import Foundation
import Logging

/// What the host gives every plugin: a logger, the user's units, the latest
/// fused fix, the event bus and shared resources.
public struct PluginContext: Sendable {
    /// The plugin's id from the configuration.
    public let id: String
    /// A logger labelled with the plugin's id.
    public let logger: Logger
    /// Units for anything the plugin formats for people.
    public let units: UnitSystem
    /// The time zone for times shown to people and for calendar periods.
    public let timeZone: TimeZone
    /// The latest fused fix.
    public let position: PositionBoard
    /// Events for `GET /v1/events` and for other plugins.
    public let events: EventBus
    /// Shared resources (the store, lookups offered by other plugins).
    public let resources: Resources

    public init(
        id: String, logger: Logger, units: UnitSystem = .metric, timeZone: TimeZone = .current,
        position: PositionBoard = PositionBoard(), events: EventBus = EventBus(), resources: Resources = Resources()
    ) {
        var logger = logger
        logger[metadataKey: "plugin"] = "\(id)"
        self.id = id
        self.logger = logger
        self.units = units
        self.timeZone = timeZone
        self.position = position
        self.events = events
        self.resources = resources
    }
}

/// A provider's context: the plugin context plus where to send fixes and report health.
public struct ProviderContext: Sendable {
    /// The shared plugin context (its `id` is the provider id).
    public let plugin: PluginContext
    /// The provider's state and counters for `GET /v1/providers`.
    public let health: ProviderHealth
    private let sink: @Sendable (Fix) -> Void

    public init(
        plugin: PluginContext, health: ProviderHealth = ProviderHealth(), sink: @escaping @Sendable (Fix) -> Void
    ) {
        self.plugin = plugin
        self.health = health
        self.sink = sink
    }

    /// The provider id.
    public var id: String { plugin.id }
    /// The provider's logger.
    public var logger: Logger { plugin.logger }

    /// Hands a fix to the host (which stamps nothing: set `providerID` to `id`, or to `<id>/<source>` for one of the
    /// provider's several sources, which the host then fuses as a source of its own).
    public func emit(_ fix: Fix) {
        sink(fix)
    }
}
