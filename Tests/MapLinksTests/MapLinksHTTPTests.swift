import Foundation
import Hummingbird
import Logging
import MeridianCore
import MeridianHTTP
import MeridianTesting
import ServiceLifecycle
import Testing

@testable import MapLinkCore
@testable import MapLinks

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The plugin's routes served by a real Hummingbird server on 127.0.0.1 and called over a socket.
@Suite("Map-link HTTP routes over a live socket")
struct MapLinksHTTPTests {
    struct Answer {
        var status: Int
        var body: Data
        func json<T: Decodable>(_ type: T.Type) throws -> T { try MeridianJSON.makeDecoder().decode(type, from: body) }
    }

    /// Serves `plugin`'s routes under `/v1` on a free port for the duration of `body`.
    func withServer(_ plugin: MapLinksPlugin, _ body: (_ get: (String) async throws -> Answer) async throws -> Void)
        async throws
    {
        let router = Router(context: MeridianRequestContext.self)
        plugin.addRoutes(to: router.group("v1"))
        // Port 0: the kernel picks a free port, which the server reports once it listens.
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "maplinks-test")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], cancellationSignals: [], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { portContinuation.finish() }
                try await group.run()
            }
            defer { tasks.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                try await tasks.next()
                throw TestSupportError("the HTTP server did not start")
            }
            let session = URLSession(configuration: .ephemeral)
            try await body { path in
                let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
                let (data, response) = try await session.data(from: url)
                return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
            }
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
    }

    func plugin(
        _ defaults: MapLinkBuilder = MapLinkBuilder(), flyers: (any FlyerPlaceLookup)? = nil,
        position: PositionBoard = PositionBoard()
    ) -> MapLinksPlugin {
        let resources = Resources()
        if let flyers { resources[FlyerPlaceLookupKey.self] = flyers }
        return MapLinksPlugin(
            defaults: defaults,
            context: PluginContext(
                id: "map-links", logger: Logger(label: "test"),
                position: position, resources: resources))
    }

    @Test("GET /v1/maplinks builds links and rejects bad input with JSON errors")
    func maplinks() async throws {
        let position = PositionBoard()
        try await withServer(plugin(position: position)) { get in
            let link = try await get(
                "/v1/maplinks?to=48.8584,2.2945&name=Caf%C3%A9%20%26%20Bar%20%231%20%2B%2050%25&mode=show")
            #expect(link.status == 200)
            let result = try link.json(MapLinkResult.self)
            #expect(
                result.url
                    == "https://maps.apple.com/place?coordinate=48.8584,2.2945&name=Caf%C3%A9%20%26%20Bar%20%231%20%2B%2050%25"
            )
            #expect(result.destination.name == "Café & Bar #1 + 50%")
            #expect(result.mode == "show" && result.style == .apple)

            let google = try await get(
                "/v1/maplinks?address=10%20Downing%20St&style=google&mode=transit&from=51.5,-0.12")
            #expect(google.status == 200)
            #expect(
                try google.json(MapLinkResult.self).url
                    == "https://www.google.com/maps/dir/?api=1&origin=51.5,-0.12&destination=10%20Downing%20St&travelmode=transit"
            )

            let geo = try await get("/v1/maplinks?to=-0.0000001,180&style=geo&accuracy=5")
            #expect(try geo.json(MapLinkResult.self).url == "geo:0,180;u=5")

            let legacyCycling = try await get("/v1/maplinks?to=1,2&style=apple-legacy&mode=cycling")
            #expect(legacyCycling.status == 400)
            let error = try legacyCycling.json(APIErrorBody.self).error
            #expect(error.code == "invalid_parameter")
            #expect(error.message == MapLinkError.modeNotSupported(.cycling, style: .appleLegacy).description)

            let badCoordinate = try await get("/v1/maplinks?to=91,0")
            #expect(badCoordinate.status == 400)
            #expect(try badCoordinate.json(APIErrorBody.self).error.message.hasPrefix("to: latitude 91.0"))
            #expect(try await get("/v1/maplinks").status == 400)

            let noFix = try await get("/v1/maplinks?to=1,2&from=here")
            #expect(noFix.status == 409)
            #expect(try noFix.json(APIErrorBody.self).error.code == "no_fix")
            position.update(.test(45.5, -73.5))
            let fromHere = try await get("/v1/maplinks?to=1,2&from=here")
            #expect(
                try fromHere.json(MapLinkResult.self).url
                    == "https://maps.apple.com/directions?source=45.5,-73.5&destination=1,2&mode=walking")
        }
    }

    @Test("GET /v1/maplinks/flyer/{id}: 404 without the flyers plugin or for unknown ids")
    func flyerRoutes() async throws {
        try await withServer(plugin()) { get in
            let answer = try await get("/v1/maplinks/flyer/f1")
            #expect(answer.status == 404)
            let error = try answer.json(APIErrorBody.self).error
            #expect(error.code == "flyers_not_configured")
            #expect(error.message.contains("type: flyers"))
        }
        let market = FlyerPlace(
            coordinate: try Coordinate(latitude: 48.8556, longitude: 2.2986), title: "Flea market", address: nil)
        let lookup = FixedFlyers(places: ["f1": market])
        let position = PositionBoard()
        position.update(.test(48.86, 2.3))
        try await withServer(plugin(MapLinkBuilder(style: .apple, mode: .walking), flyers: lookup, position: position))
        { get in
            let answer = try await get("/v1/maplinks/flyer/f1?style=apple-legacy&mode=show")
            #expect(answer.status == 200)
            let result = try answer.json(MapLinkResult.self)
            #expect(result.url == "https://maps.apple.com/?ll=48.8556,2.2986&q=Flea%20market")
            #expect(result.destination.flyerId == "f1" && result.destination.kind == "flyer")
            let walking = try await get("/v1/maplinks/flyer/f1")
            #expect(
                try walking.json(MapLinkResult.self).url
                    == "https://maps.apple.com/directions?destination=48.8556,2.2986&mode=walking")
            #expect(
                await lookup.origins.values == [
                    try Coordinate(latitude: 48.86, longitude: 2.3), try Coordinate(latitude: 48.86, longitude: 2.3)
                ])

            let missing = try await get("/v1/maplinks/flyer/nope")
            #expect(missing.status == 404)
            #expect(try missing.json(APIErrorBody.self).error.code == "not_found")
        }
    }

    @Test("GET /v1/maplinks/flyer/{id} percent-decodes the id")
    func encodedFlyerIDs() async throws {
        let market = FlyerPlace(
            coordinate: try Coordinate(latitude: 48.8556, longitude: 2.2986), title: "Flea market", address: nil)
        let ids = ["x y/z": "x%20y%2Fz", "café": "caf%C3%A9", "%": "%25", "a+b": "a+b"]
        let lookup = FixedFlyers(places: Dictionary(uniqueKeysWithValues: ids.keys.map { ($0, market) }))
        try await withServer(plugin(flyers: lookup)) { get in
            for (id, encoded) in ids {
                let answer = try await get("/v1/maplinks/flyer/\(encoded)")
                #expect(answer.status == 200, "\(id): \(String(decoding: answer.body, as: UTF8.self))")
                #expect(try answer.json(MapLinkResult.self).destination.flyerId == id)
            }
        }
    }
}
