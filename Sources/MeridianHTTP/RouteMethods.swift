import Hummingbird
import Synchronization

/// Which methods each route path accepts, recorded once the router is complete, so that a
/// request for a known path with another method is answered 405 with an `Allow` header
/// instead of 404.
final class RouteMethods: Sendable {
    private let routes = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

    /// Records every route of `router`.
    func record(_ router: Router<MeridianRequestContext>) {
        let described = router.routes.map { (path: $0.path, method: $0.method) }
        routes.withLock { $0 = described }
    }

    /// The methods accepted on `path`, sorted by name; empty when no route has this path.
    func methods(for path: String) -> [String] {
        let parts = path.split(separator: "/")
        let matching = routes.withLock { routes in
            routes.filter { route in
                route.path.components.count == parts.count && zip(route.path.components, parts).allSatisfy { $0 ~= $1 }
            }
        }
        return Set(matching.map(\.method.rawValue)).sorted()
    }
}
