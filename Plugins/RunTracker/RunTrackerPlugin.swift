import Foundation
import Hummingbird
import Logging
import MeridianCLI
import MeridianCore
import MeridianHTTP
import MeridianStore
import ServiceLifecycle

/// The `run-tracker` consumer: live run tracking against the fused fix stream, stored in
/// SpatiaLite so that no run is lost when the process dies, with its HTTP routes and run history.
package final class RunTrackerPlugin: LocationConsumer, HTTPRoutes, HoldsPendingWrites {
    package let id: String
    package let controller: LiveRunController
    let runStore: RunStore
    private let importer: RunImporter
    let context: PluginContext
    let options: RunTrackerOptions

    package static let registration = ConsumerType(
        type: "run-tracker",
        summary: "records runs, walks, hikes and rides from the fix stream, with pauses, splits, records and history",
        options: RunTrackerOptions.info
    ) { options, context in
        try RunTrackerPlugin(options: RunTrackerOptions.decode(options), context: context)
    }

    /// `meridian runs`, `meridian gear`, `meridian goals` and `meridian privacy`.
    package static let commandLine = PluginCommands([
        RunsCommand.self, GearCommand.self, GoalsCommand.self, PrivacyCommand.self
    ])

    /// Opens (and migrates) the run tables in the context's store.
    package init(options: RunTrackerOptions, context: PluginContext, clock: @escaping @Sendable () -> Date = Date.init)
        throws
    {
        id = context.id
        self.context = context
        self.options = options
        runStore = try RunStore(store: context.store(), matcher: options.matcher)
        try PrivacyBook.synchronise(options.privacy.zones, in: runStore.store)
        let settings = options.settings(units: context.units)
        importer = RunImporter(runStore: runStore, settings: settings)
        controller = LiveRunController(
            runStore: runStore, settings: settings, events: context.events, units: context.units,
            powerSupply: PowerSupply(root: URL(fileURLWithPath: options.powerSupplyPath)), logger: context.logger,
            clock: clock)
        // A phone's offline queue, sent after newer points, goes into the active run in its place in time.
        context.resources[LateFixTap.Key.self]?.observe { [controller] fixes in
            Task { await controller.backfill(fixes) }
        }
    }

    /// Publishes `goal.reached` after saved runs.
    var goals: GoalWatch {
        GoalWatch(
            store: runStore.store, events: context.events, timeZone: context.timeZone, units: context.units,
            logger: context.logger)
    }

    /// The active run's points held while the store refuses writes (`/health`).
    package var pendingWrites: PendingWrites? { controller.pendingWrites.current }

    package func consume(_ fix: Fix) async {
        await controller.consume(fix)
    }

    /// Restores the active run, then writes pending points every half second until shutdown.
    package func run() async throws {
        do { try await controller.restoreIfNeeded() } catch {
            context.logger.error("cannot restore the active run: \(error)")
        }
        let controller = self.controller
        let goals = self.goals
        let following = Task { await goals.followLiveRuns() }
        defer { following.cancel() }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(LiveRunController.flushInterval))
                await controller.flushLogging()
            }
        }
        await controller.flushLogging()
    }

    package func addRoutes(to v1: RouterGroup<MeridianRequestContext>) {
        LiveRunRoutes(controller: controller).add(to: v1)
        RunHistoryRoutes.add(
            to: v1, store: runStore.store, events: context.events, units: context.units,
            training: options.training, timeZone: context.timeZone)
        RunImportRoutes.add(to: v1.group("runs"), importer: importer, events: context.events, goals: goals)
        TrainingRoutes.add(to: v1, store: runStore.store, training: options.training, timeZone: context.timeZone)
        GoalRoutes.add(to: v1, store: runStore.store, units: context.units, timeZone: context.timeZone)
        HeatmapRoutes.add(to: v1, store: runStore.store, units: context.units, timeZone: context.timeZone)
        GearRoutes.add(to: v1, store: runStore.store)
        ProgressRoutes.add(
            to: v1,
            settings: ProgressSettings(units: context.units, timeZone: context.timeZone, matcher: options.matcher),
            store: runStore.store)
    }
}
