import MeridianCore

/// Which positions flyer enter/exit events follow (the `fences` option).
package enum FenceMode: String, Decodable, Sendable, Equatable, CaseIterable {
    /// The one fused position (events without `device`).
    case fused
    /// Every device of every provider, each on its own (events name `device` and `provider`).
    case perDevice = "per-device"
    /// Both.
    case both

    var followsFused: Bool { self != .perDevice }
    var followsDevices: Bool { self != .fused }
}

/// Per-device fences: every fix each provider sends (the host's `ProviderFixTap`, before fusion) is queued here
/// and judged by the watcher on the plugin's own task, never on the provider's. The queue keeps the newest 1,024
/// fixes; older ones are dropped when the watcher falls behind (a later fix of the same device judges it again).
final class DeviceFences: Sendable {
    private let fixes: AsyncStream<Fix>
    private let continuation: AsyncStream<Fix>.Continuation
    private let watcher: ProximityWatcher
    private let catalog: FlyerCatalog

    init(tap: ProviderFixTap, watcher: ProximityWatcher, catalog: FlyerCatalog) {
        (fixes, continuation) = AsyncStream.makeStream(of: Fix.self, bufferingPolicy: .bufferingNewest(1024))
        self.watcher = watcher
        self.catalog = catalog
        let continuation = self.continuation
        tap.observe { continuation.yield($0) }
    }

    /// Judges the queued fixes once the catalogue is loaded, until the task is cancelled.
    func run() async {
        await catalog.untilLoaded()
        for await fix in fixes {
            watcher.update(device: fix)
        }
    }
}
