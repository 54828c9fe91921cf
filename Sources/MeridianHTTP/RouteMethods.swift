import Hummingbird
import Synchronization

/// Which methods each route path accepts, recorded once the router is complete, so that a
/// request for a known path with another method is answered 405 with an `Allow` header
/// instead of 404, and `OPTIONS` can list them.
final class RouteMethods: Sendable {
    /// One route path and the methods it accepts.
    private struct Entry {
        let components: [RouterPath.Element]
        let methods: [String]
    }

    private let entries = Mutex<[Entry]>([])

    /// Records every route of `router`. HEAD is served wherever GET is, and OPTIONS everywhere.
    func record(_ router: Router<MeridianRequestContext>) {
        let recorded = Dictionary(grouping: router.routes, by: { $0.path.description }).values.map { routes in
            var methods = Set(routes.map(\.method.rawValue))
            if methods.contains("GET") { methods.insert("HEAD") }
            methods.insert("OPTIONS")
            return Entry(components: routes[0].path.components, methods: methods.sorted())
        }
        entries.withLock { $0 = recorded }
    }

    /// The methods accepted on `path`, sorted by name; empty when no route has this path. When several
    /// route paths match, the one the router picks answers: at the first component where they differ, a
    /// constant (`nearby`) wins over a parameter (`{id}`).
    func methods(for path: String) -> [String] {
        let components = path.split(separator: "/")
        let matching = entries.withLock { entries in
            entries.compactMap { entry in
                Self.specificity(of: entry.components, matching: components).map { ($0, entry) }
            }
        }
        return matching.max { $0.0.lexicographicallyPrecedes($1.0) }?.1.methods ?? []
    }

    /// For a route path that matches `components`, one number per component: 1 where a constant matched,
    /// 0 where a parameter or wildcard did; nil when the path does not match. A trailing `**` takes the rest.
    private static func specificity(of route: [RouterPath.Element], matching components: [Substring]) -> [Int]? {
        var ranks: [Int] = []
        for (index, element) in route.enumerated() {
            if element.description == "**", index == route.count - 1 {
                return index < components.count ? ranks + [0] : nil
            }
            guard index < components.count, element ~= components[index] else { return nil }
            ranks.append(element == components[index] ? 1 : 0)
        }
        return route.count == components.count ? ranks : nil
    }
}
