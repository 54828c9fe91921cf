// The router's own path trie, so that a path resolves here exactly as it does for the router
// (a constant component such as `nearby` wins over `{id}`).
@_spi(Internal) import Hummingbird
import Synchronization

/// Which methods each route path accepts, recorded once the router is complete, so that a
/// request for a known path with another method is answered 405 with an `Allow` header
/// instead of 404, and `OPTIONS` can list them.
final class RouteMethods: Sendable {
    private let trie = Mutex<RouterTrie<[String]>?>(nil)

    /// Records every route of `router`. HEAD is served wherever GET is, and OPTIONS everywhere.
    func record(_ router: Router<MeridianRequestContext>) {
        let builder = RouterPathTrieBuilder<[String]>()
        for routes in Dictionary(grouping: router.routes, by: { $0.path.description }).values {
            var methods = Set(routes.map(\.method.rawValue))
            if methods.contains("GET") { methods.insert("HEAD") }
            methods.insert("OPTIONS")
            builder.addEntry(routes[0].path, value: methods.sorted())
        }
        let built = builder.build()
        trie.withLock { $0 = built }
    }

    /// The methods accepted on `path`, sorted by name; empty when no route has this path.
    func methods(for path: String) -> [String] {
        trie.withLock { $0?.resolve(path)?.value } ?? []
    }
}
