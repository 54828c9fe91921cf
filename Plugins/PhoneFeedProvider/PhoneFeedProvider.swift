import Foundation
import Hummingbird
import MeridianCLI
import MeridianCore
import MeridianHTTP
import MeridianStore
import ServiceLifecycle

/// The `phone` provider: phones post their positions over HTTP with the apps' own protocols (OwnTracks,
/// OsmAnd/Traccar Client, Overland, GPSLogger), each registered device with a key of its own
/// (`meridian devices add`). Each device's fixes go to the host as a source of its own, `<id>/<device>`.
package final class PhoneFeedProvider: LocationProvider, HTTPRoutes, ReportsSources {
    package let id: String
    private let context: ProviderContext
    private let options: PhoneFeedOptions
    let devices: DeviceStore
    let feeds: DeviceFeeds
    let sampling = SamplingControl()

    /// The `phone` provider type.
    package static let registration = ProviderType(
        type: "phone",
        summary:
            "Takes positions from phones over HTTP: OwnTracks, OsmAnd/Traccar Client, Overland, GPSLogger (per-device keys)",
        options: PhoneFeedOptions.info
    ) { options, context in
        let decoded = try options.decode(PhoneFeedOptions.self)
        guard decoded.maxPointsPerSecond.isFinite, decoded.maxPointsPerSecond > 0 else {
            throw options.error(
                key: "max_points_per_second", "\(decoded.maxPointsPerSecond) must be a number above 0, e.g. 50")
        }
        guard decoded.maxBurst.isFinite, decoded.maxBurst >= 1 else {
            throw options.error(key: "max_burst", "\(decoded.maxBurst) must be at least 1, e.g. 20000")
        }
        for (name, fusion) in decoded.devices.sorted(by: { $0.key < $1.key }) {
            if let staleAfter = fusion.staleAfter, !(staleAfter.isFinite && staleAfter > 0) {
                throw options.error(
                    key: "devices", "stale_after of '\(name)' must be a number of seconds above 0, e.g. 120")
            }
        }
        return try PhoneFeedProvider(options: decoded, context: context)
    }

    /// `meridian devices`.
    package static let commandLine = PluginCommands([DevicesCommand.self])

    /// Opens (and migrates) the device table in the context's store.
    package init(options: PhoneFeedOptions, context: ProviderContext) throws {
        id = context.id
        self.context = context
        self.options = options
        devices = try DeviceStore(store: context.plugin.store())
        feeds = DeviceFeeds(pointsPerSecond: options.maxPointsPerSecond, burst: options.maxBurst)
    }

    /// Waits for phones until shutdown (the routes do the work), following the run tracker's `run.state` events to
    /// drive the OwnTracks phones' sampling.
    package func run() async throws {
        context.health.declare(["received", "accepted", "duplicate", "late", "rejected", "unauthorized"])
        let count = (try? devices.list().count) ?? 0
        context.health.update(.connecting, message: "waiting for phones (\(count) registered)")
        let events = context.plugin.events.subscribe(names: ["run.state"])
        await cancelWhenGracefulShutdown { [sampling] in
            for await event in events { sampling.apply(runStateJSON: event.json) }
        }
    }

    package func addRoutes(to v1: RouterGroup<MeridianRequestContext>) {
        FeedRoutes(devices: devices, feeds: feeds, sampling: sampling, context: context).add(to: v1)
        DeviceRoutes(devices: devices, feeds: feeds, sampling: sampling).add(to: v1)
    }

    /// Each registered device as `<id>/<device>` in `GET /v1/providers`.
    package func sourceReports(now: Date) -> [SourceReport] {
        ((try? devices.list()) ?? []).map { device in
            let feed = feeds.state(of: device.id)
            return SourceReport(
                name: device.id, lastFixAgeS: feed.lastArrival.map { now.timeIntervalSince($0) },
                fixesReceived: feed.accepted,
                counters: [
                    "received": feed.received, "accepted": feed.accepted, "duplicate": feed.duplicate,
                    "late": feed.late, "rejected": feed.rejected
                ],
                battery: feed.battery, lastRejection: feed.lastRejection)
        }
    }

    /// A device's own priority or `stale_after` from the `devices` option.
    package func fusionSettings(of name: String) -> SourceFusion? { options.devices[name] }

    /// The path prefix that needs a device key instead of the admin token.
    package var publicPathPrefixes: [String] { ["/v1/feeds/"] }
}
