import Foundation
import Logging
import MeridianCore
import ServiceLifecycle
import Synchronization

/// Checks the rules every `LocationProvider` must follow. Any provider plugin
/// can run it against itself:
///
/// ```swift
/// let report = try await ProviderConformance.run(minimumFixes: 5) { context in
///     try ReplayProvider(options: ..., context: context)
/// }
/// #expect(report.violations.isEmpty, "\(report.violations)")
/// ```
public enum ProviderConformance {
    /// What the provider did while it ran.
    public struct Report: Sendable {
        public var fixes: [Fix]
        public var violations: [String]
        public var finalHealth: ProviderHealth.Snapshot
    }

    /// Runs the provider built by `make` until it has emitted `minimumFixes` fixes
    /// (or `timeout` seconds pass), shuts it down gracefully, and checks that:
    /// it reported a state other than `starting`; it emitted at least `minimumFixes`;
    /// every fix carries its id, a position only with a 2D/3D mode, finite
    /// non-negative speed and accuracies and a course in 0..<360; and it stopped
    /// within `stopWithin` seconds of the shutdown request.
    public static func run(
        id: String = "conformance",
        minimumFixes: Int = 1,
        timeout: Double = 20,
        stopWithin: Double = 5,
        make: @Sendable (ProviderContext) throws -> any LocationProvider
    ) async throws -> Report {
        let collected = Mutex<[Fix]>([])
        let logger = Logger(label: "conformance")
        let context = ProviderContext(plugin: PluginContext(id: id, logger: logger)) { fix in
            collected.withLock { $0.append(fix) }
        }
        let provider = try make(context)
        var violations: [String] = []
        if provider.id != id { violations.append("provider id is '\(provider.id)', expected '\(id)' from its context") }

        let group = ServiceGroup(
            configuration: .init(services: [provider], gracefulShutdownSignals: [], logger: logger))
        let runner = Task { try await group.run() }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, collected.withLock({ $0.count }) < minimumFixes {
            try await Task.sleep(for: .milliseconds(20))
        }
        let stopRequested = Date()
        await group.triggerGracefulShutdown()
        _ = try? await runner.value
        let stopSeconds = Date().timeIntervalSince(stopRequested)
        if stopSeconds > stopWithin {
            violations.append(
                "took \(String(format: "%.1f", stopSeconds)) s to stop after graceful shutdown (limit \(stopWithin) s)")
        }

        let fixes = collected.withLock { $0 }
        let health = context.health.snapshot
        if health.state == .starting { violations.append("never reported a state (still 'starting')") }
        if fixes.count < minimumFixes {
            violations.append("emitted \(fixes.count) fixes within \(timeout) s, expected at least \(minimumFixes)")
        }
        for (index, fix) in fixes.enumerated() {
            violations += check(fix, index: index, id: id)
        }
        return Report(fixes: fixes, violations: violations, finalHealth: health)
    }

    /// The per-fix rules.
    public static func check(_ fix: Fix, index: Int, id: String) -> [String] {
        var problems: [String] = []
        let label = "fix \(index)"
        if fix.providerID != id { problems.append("\(label): providerID '\(fix.providerID)' is not '\(id)'") }
        if fix.coordinate != nil && fix.mode == .noFix {
            problems.append("\(label): has a position but mode is no fix")
        }
        if fix.coordinate == nil && fix.mode != .noFix {
            problems.append("\(label): mode \(fix.mode.rawValue) without a position")
        }
        if let speed = fix.speed, !(speed.isFinite && speed >= 0) { problems.append("\(label): speed \(speed)") }
        if let course = fix.course, !(course.isFinite && course >= 0 && course < 360) {
            problems.append("\(label): course \(course)")
        }
        for (name, value) in [
            ("horizontal accuracy", fix.horizontalAccuracy), ("vertical accuracy", fix.verticalAccuracy)
        ] {
            if let value, !(value.isFinite && value >= 0) { problems.append("\(label): \(name) \(value)") }
        }
        for (name, value) in [("altitude HAE", fix.altitudeHAE), ("altitude MSL", fix.altitudeMSL)] {
            if let value, !value.isFinite { problems.append("\(label): \(name) \(value)") }
        }
        if !fix.time.timeIntervalSince1970.isFinite { problems.append("\(label): time is not finite") }
        return problems
    }
}
