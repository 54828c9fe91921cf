import ArgumentParser
import MeridianCore

/// The `meridian` command-line tool: the service and every tool over the same code.
@main
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
            ReplayCommand.self,
            GPSDCommand.self,
            RunsCommand.self,
            FlyersCommand.self,
            MapLinkCommand.self,
        ]
    )
}
