import Foundation
import MeridianCore
import ServiceLifecycle
import Synchronization

/// A provider driven by the test: `send(_:)` emits a fix, `setState` reports health.
/// It runs until graceful shutdown like a real provider.
public final class ScriptedProvider: LocationProvider, Sendable {
    public let id: String
    public let context: ProviderContext

    public init(context: ProviderContext) {
        self.id = context.id
        self.context = context
    }

    /// Emits `fix` as this provider (its `providerID` is set to the provider id).
    public func send(_ fix: Fix) {
        var fix = fix
        fix.providerID = id
        context.emit(fix)
    }

    public func run() async throws {
        context.health.update(.connected)
        try? await gracefulShutdown()
        context.health.update(.finished)
    }

    /// Registration under type `scripted`; built providers are reported to `onMake`.
    public static func registration(onMake: @escaping @Sendable (ScriptedProvider) -> Void = { _ in }) -> ProviderType {
        ProviderType(type: "scripted", summary: "Emits the fixes a test sends it.", options: []) { options, context in
            _ = try options.decode(NoOptions.self)
            let provider = ScriptedProvider(context: context)
            onMake(provider)
            return provider
        }
    }
}

/// A consumer that records every fix it receives, optionally taking `delay` per fix.
public final class RecordingConsumer: LocationConsumer, Sendable {
    public let id: String
    private let delay: Duration
    private let received = Mutex<[Fix]>([])

    public init(id: String, delay: Duration = .zero) {
        self.id = id
        self.delay = delay
    }

    public func consume(_ fix: Fix) async {
        if delay > .zero { try? await Task.sleep(for: delay) }
        received.withLock { $0.append(fix) }
    }

    /// Fixes received so far.
    public var fixes: [Fix] { received.withLock { $0 } }
}

extension Fix {
    /// A 3D GPS fix at `latitude`,`longitude` for tests (time defaults to now).
    public static func test(
        _ latitude: Double, _ longitude: Double, time: Date = Date(), speed: Double? = nil,
        accuracy: Double? = 5, provider: String = "test"
    ) -> Fix {
        Fix(
            time: time, coordinate: try? Coordinate(latitude: latitude, longitude: longitude),
            speed: speed, horizontalAccuracy: accuracy, mode: .threeD, quality: .gps, satellitesUsed: 8,
            providerID: provider)
    }
}
