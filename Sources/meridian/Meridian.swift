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
            HooksCommand.self
        ] + StandardPlugins.commandLine.commands
    )
}

extension Meridian {
    /// What `--version` prints: the version, and each plugin's schema version (the number of its migrations).
    static let versionText =
        "\(MeridianVersion.current) (database schema: "
        + StandardPlugins.schemas.map { "\($0.plugin) \($0.identifiers.count)" }.joined(separator: ", ") + ")"
}

/// The entry: runs the command line, handing a command that uses what plugins offer one another's commands
/// the resources every plugin's registration fills.
@main
enum MeridianMain {
    static func main() async {
        do {
            var command = try await Meridian.asyncParseAsRoot()
            if let resourceUsing = command as? any ResourceUsingCommand {
                try await resourceUsing.run(with: StandardPlugins.commandLine.offers())
            } else if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
        do {
            try Standard.flushPrinted()
        } catch {
            Standard.error("meridian: \(error.message)")
            exit(withError: ExitCode(1))
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
