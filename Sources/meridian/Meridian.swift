import ArgumentParser
import MeridianCLI
import MeridianCore

/// The `meridian` command-line tool: the service and every tool over the same code.
struct Meridian: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meridian",
        abstract: "Local-first geolocation and proximity service.",
        version: MeridianVersion.current,
        subcommands: [
            ServeCommand.self,
            ConfigCommand.self,
            PluginsCommand.self,
            DistanceCommand.self,
            FormatCommand.self,
        ] + StandardPlugins.registry.commands
    )
}

/// The entry: lets the plugins offer one another's commands what they need, then runs the command line.
@main
enum MeridianMain {
    static func main() async {
        StandardPlugins.registry.offerToCommands(CommandResources.shared)
        await Meridian.main()
    }
}
