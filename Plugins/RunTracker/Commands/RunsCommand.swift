import ArgumentParser

/// `meridian runs …`: live control of the running service, and the run history in the store.
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "Track runs live, import recordings, and browse, edit and export the history.",
        subcommands: [
            RunsStartCommand.self, RunsPauseCommand.self, RunsResumeCommand.self, RunsLapCommand.self,
            RunsStopCommand.self,
            RunsDiscardCommand.self,
            RunsStatusCommand.self, RunsImportCommand.self,
            RunsListCommand.self, RunsShowCommand.self, RunsEditCommand.self, RunsDeleteCommand.self,
            RunsRestoreCommand.self, RunsRecordsCommand.self, RunsExportCommand.self, RunsRenderCommand.self,
            RunsStatsCommand.self, RunsCompareCommand.self, RunsRoutesCommand.self, RunsSegmentsCommand.self,
            RunsFitnessCommand.self, RunsVdotCommand.self, RunsHeatmapCommand.self
        ]
    )
}
