import MeridianCore

/// What plugins offer one another's commands (the command-line side of `PluginContext.resources`): filled
/// once by the `meridian` shell from every registration's `offerToCommands` before a command runs.
public enum CommandResources {
    public static let shared = Resources()
}
