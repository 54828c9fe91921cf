import Hummingbird
import MeridianCore
import MeridianHTTP
import Synchronization

/// The example plugin of docs/architecture.md: a consumer of type `fix-counter` that counts the fixes each
/// provider delivers (leaving out those less accurate than its `max_error` option) and serves the counts at
/// `GET /v1/fix-counter` and `GET /v1/fix-counter/{provider}`.
package final class FixCounter: LocationConsumer, HTTPRoutes {
    /// What `PluginRegistry.register(_:)` takes: the configuration type, its options, and how to build it.
    package static let registration = ConsumerType(
        type: "fix-counter",
        summary: "Counts the fixes each provider delivers (the example plugin of docs/architecture.md)",
        options: [
            OptionInfo("max_error", "metres", default: "none", "fixes with a larger horizontal error are not counted")
        ],
        make: { options, context in
            let decoded = try options.decode(Options.self)
            if let maxError = decoded.maxError, !(maxError > 0) {
                throw options.error(key: "max_error", "must be more than 0 metres, got \(maxError)")
            }
            return FixCounter(id: context.id, maxError: decoded.maxError)
        }
    )

    /// The plugin's entry under `consumers:` (besides `type` and `id`); unknown keys are errors.
    struct Options: Decodable {
        var maxError: Double?
        enum CodingKeys: String, CodingKey { case maxError = "max_error" }
    }

    /// One provider's count, as the routes answer it.
    struct Count: Encodable, Sendable {
        let provider: String
        let fixes: Int
    }

    package let id: String
    private let maxError: Double?
    private let counts = Mutex<[String: Int]>([:])

    init(id: String, maxError: Double?) {
        self.id = id
        self.maxError = maxError
    }

    /// Called by the host for every fused fix, in order, on this consumer's own queue.
    package func consume(_ fix: Fix) async {
        if let maxError, (fix.horizontalAccuracy ?? .infinity) > maxError { return }
        counts.withLock { $0[fix.providerID, default: 0] += 1 }
    }

    /// The fixes counted from `provider`; nil before its first.
    package func fixes(from provider: String) -> Int? {
        counts.withLock { $0[provider] }
    }

    /// Mounts the plugin's routes under `/v1`; the server adds HEAD, OPTIONS, 405s, auth and JSON errors.
    package func addRoutes(to v1: RouterGroup<MeridianRequestContext>) {
        let group = v1.group("fix-counter")
        group.get { request, _ in
            try request.allowQuery([])
            let counts = self.counts.withLock { $0 }
            return JSONResponse(counts.keys.sorted().map { Count(provider: $0, fixes: counts[$0] ?? 0) })
        }
        group.get("{provider}") { request, context in
            try request.allowQuery([])
            let provider = try context.parameters.decoded("provider")
            guard let fixes = self.fixes(from: provider) else {
                throw APIError.notFound(
                    "no fix counted from provider '\(provider)'; GET /v1/fix-counter lists those counted")
            }
            return JSONResponse(Count(provider: provider, fixes: fixes))
        }
    }
}
