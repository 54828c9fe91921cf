import ArgumentParser
import MeridianCLI
import MeridianCore

/// The `meridian` command-line tool: the service and every tool over the same code.
struct Meridian: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meridian",
        abstract: "Local-first geolocation and proximity service.",
        discussion: "Exit codes: 0 success, 1 failure, 2 bad usage or configuration.",
        version: versionText,
        subcommands: [
            ServeCommand.self,
            ConfigCommand.self,
            PluginsCommand.self,
            DistanceCommand.self,
            FormatCommand.self,
            StoreCommand.self,
            BackupCommand.self,
            RestoreCommand.self,
        ] + StandardPlugins.registry.commands
    )
}

extension Meridian {
    /// What `--version` prints: the version, and each plugin's schema version (the number of its migrations).
    static let versionText = "\(MeridianVersion.current) (database schema: "
        + StandardPlugins.schemas.map { "\($0.plugin) \($0.identifiers.count)" }.joined(separator: ", ") + ")"
}

/// The entry: lets the plugins offer one another's commands what they need, then runs the command line.
@main
enum MeridianMain {
    static func main() async {
        StandardPlugins.registry.offerToCommands(CommandResources.shared)
        do {
            var command = try await Meridian.asyncParseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Prints what ArgumentParser says about `error` and exits; its usage errors (64, EX_USAGE) exit with 2
    /// like every other usage error of Meridian.
    private static func exit(withError error: any Error) -> Never {
        let code = Meridian.exitCode(for: error)
        guard code == .validationFailure else { Meridian.exit(withError: error) }
        Standard.error(Meridian.fullMessage(for: error))
        Meridian.exit(withError: ExitCode(CommandFailure.usage))
    }
}
