import Hummingbird
import MeridianCore
import Metrics

/// Counts requests and records their latency, labelled by method, route and status.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = MeridianRequestContext
    let factory: any MetricsFactory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
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
        let route = context.endpointPath ?? "unmatched"
        let dimensions = [("method", request.method.rawValue), ("route", route), ("status", String(status))]
        Counter(label: MeridianMetric.httpRequests.rawValue, dimensions: dimensions, factory: factory).increment()
        Metrics.Timer(label: MeridianMetric.httpRequestDuration.rawValue,
                      dimensions: [("method", request.method.rawValue), ("route", route)], factory: factory)
            .recordNanoseconds((ContinuousClock.now - start).nanoseconds)
    }
}
