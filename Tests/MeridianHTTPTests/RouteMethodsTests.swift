import Hummingbird
import Testing

@testable import MeridianHTTP

/// `Allow` comes from Meridian's own route table and picks the route the router picks.
@Suite("Allowed methods from the route table")
struct RouteMethodsTests {
    private static func recorded() -> RouteMethods {
        let router = Router(context: MeridianRequestContext.self)
        router.get("things/nearby") { _, _ in "near" }
        router.get("things/{id}") { _, _ in "one" }
        router.put("things/{id}") { _, _ in "put" }
        router.delete("things/{id}") { _, _ in "gone" }
        router.get("files/**") { _, _ in "file" }
        router.get("/") { _, _ in "root" }
        let methods = RouteMethods()
        methods.record(router)
        return methods
    }

    @Test("a path parameter matches any segment; a constant beside it wins; nothing else matches")
    func pathParameters() {
        let methods = Self.recorded()
        #expect(methods.methods(for: "/things/abc") == ["DELETE", "GET", "HEAD", "OPTIONS", "PUT"])
        #expect(methods.methods(for: "/things/x%20y%2Fz") == ["DELETE", "GET", "HEAD", "OPTIONS", "PUT"])
        #expect(methods.methods(for: "/things/nearby") == ["GET", "HEAD", "OPTIONS"])
        #expect(methods.methods(for: "/things") == [])
        #expect(methods.methods(for: "/things/abc/more") == [])
        #expect(methods.methods(for: "/files/a/b") == ["GET", "HEAD", "OPTIONS"])
        #expect(methods.methods(for: "/files") == [])
        #expect(methods.methods(for: "/") == ["GET", "HEAD", "OPTIONS"])
    }
}
