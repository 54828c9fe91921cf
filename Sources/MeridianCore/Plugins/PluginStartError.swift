/// A plugin that is configured correctly but cannot start: its data cannot be loaded, its tables cannot be
/// updated… Not a configuration problem, so it is shown without a configuration location (`meridian serve`
/// exits with 1, not 2). Plugins throw it from their `make` for anything but bad options.
public struct PluginStartError: Error, Equatable, CustomStringConvertible {
    /// The plugin's id in the configuration.
    public var plugin: String
    /// What went wrong and what to do.
    public var message: String

    public init(plugin: String, message: String) {
        self.plugin = plugin
        self.message = message
    }

    public var description: String { "\(plugin): \(message)" }
}
