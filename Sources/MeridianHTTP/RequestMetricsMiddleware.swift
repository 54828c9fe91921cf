import Hummingbird
import MeridianCore
import Metrics
import Synchronization

/// Counts requests and records their latency, labelled by method, route and status.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let factory: any MetricsFactory
    /// The counter and timer of each (method, route, status) seen, made once: making them looks them up in
    /// the factory's registry (label sanitising, a lock, dictionaries) at every request otherwise.
    private let handles = MetricHandles()

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: start)
            return response
        } catch let error as any HTTPResponseError {
            record(request, context, status: error.status.code, since: start)
            throw error
        } catch {
            record(request, context, status: 500, since: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        // The matched route (e.g. /v1/flyers/{id}), never the raw path, to keep label values bounded.
        let key = MetricHandles.Key(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status)
        let (counter, timer) = handles.handles(for: key) { key in
            let dimensions = [("method", key.method), ("route", key.route), ("status", String(key.status))]
            return (
                Counter(label: MeridianMetric.httpRequests.rawValue, dimensions: dimensions, factory: factory),
                Metrics.Timer(
                    label: MeridianMetric.httpRequestDuration.rawValue,
                    dimensions: [("method", key.method), ("route", key.route)], factory: factory)
            )
        }
        counter.increment()
        timer.recordNanoseconds((ContinuousClock.now - start).nanoseconds)
    }
}

/// The request metrics made so far, by method, route and status (a bounded set: routes are the matched ones).
final class MetricHandles: Sendable {
    struct Key: Hashable, Sendable {
        var method: String
        var route: String
        var status: Int
    }

    private let made = Mutex<[Key: (Counter, Metrics.Timer)]>([:])

    /// The handles of `key`, made by `make` the first time.
    func handles(for key: Key, make: (Key) -> (Counter, Metrics.Timer)) -> (Counter, Metrics.Timer) {
        made.withLock { made in
            if let found = made[key] { return found }
            let fresh = make(key)
            made[key] = fresh
            return fresh
        }
    }
}
