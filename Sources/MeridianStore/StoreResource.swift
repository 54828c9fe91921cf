import MeridianCore

/// Where the host puts the shared `Store` in `PluginContext.resources`.
public enum StoreKey: ResourceKey {
    public typealias Value = Store
}

extension PluginContext {
    /// The shared store; throws a `ConfigError` naming the plugin when the host has none.
    public func store() throws(ConfigError) -> Store {
        guard let store = resources[StoreKey.self] else {
            throw ConfigError(
                path: id, message: "plugin '\(id)' needs the database, but no store is configured (set store.path)")
        }
        return store
    }
}
