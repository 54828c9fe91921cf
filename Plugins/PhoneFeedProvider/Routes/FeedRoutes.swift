import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP

/// `/v1/feeds/{owntracks, osmand, overland}`: the routes the phone apps post to. They need a device key (not the admin
/// token), read nothing and answer what each app expects, also for points they refuse (an app would otherwise resend
/// them forever); refused points are counted per device.
struct FeedRoutes: Sendable {
    let devices: DeviceStore
    let feeds: DeviceFeeds
    let sampling: SamplingControl
    let context: ProviderContext
    /// Largest accepted body: a 10,000-point Overland batch fits, 16 MiB does not.
    static let bodyLimit = 8 << 20

    func add(to v1: RouterGroup<MeridianRequestContext>) {
        v1.post("feeds/owntracks") { request, context in
            let device = try await authenticate(request, context, scheme: "Basic")
            let body = try await request.collectBody(
                limit: Self.bodyLimit, mediaTypes: ["application/json", "text/plain"])
            let message = OwnTracksMessage.decode(body)
            deliver(message.points, from: device)
            let commands = sampling.commands(for: device.id, reported: message.mode)
            let answer =
                (try? JSONSerialization.data(withJSONObject: commands, options: [.sortedKeys])) ?? Data("[]".utf8)
            return Self.response(String(decoding: answer, as: UTF8.self), type: "application/json")
        }
        v1.get("feeds/osmand") { request, context in
            let device = try await authenticate(request, context, scheme: "Bearer")
            deliver([OsmAndParameters.decode(OsmAndParameters.parameters(request.uri.query ?? ""))], from: device)
            return Response(status: .ok)
        }
        v1.post("feeds/osmand") { request, context in
            let device = try await authenticate(request, context, scheme: "Bearer")
            let isJSON = request.headers[.contentType]?.lowercased().hasPrefix("application/json") ?? false
            let body = try await request.collectBody(
                limit: Self.bodyLimit, mediaTypes: ["application/x-www-form-urlencoded", "application/json"])
            if isJSON {
                deliver([OsmAndParameters.decode(json: body)], from: device)
            } else {
                let query = OsmAndParameters.parameters(request.uri.query ?? "")
                let form = OsmAndParameters.parameters(String(decoding: body, as: UTF8.self))
                deliver([OsmAndParameters.decode(query.merging(form) { first, _ in first })], from: device)
            }
            return Response(status: .ok)
        }
        v1.post("feeds/overland") { request, context in
            let device = try await authenticate(request, context, scheme: "Bearer")
            let body = try await request.collectBody(limit: Self.bodyLimit, mediaTypes: ["application/json"])
            deliver(OverlandBatch.decode(body), from: device)
            return Self.response(#"{"result":"ok"}"#, type: "application/json")
        }
    }

    /// The device whose key the request carries (Basic password, Bearer token or `key` query parameter), or a 401.
    /// Wrong keys are held back and limited per client address like wrong tokens (`CredentialAttempts`): a 429 then.
    private func authenticate(_ request: Request, _ requestContext: MeridianRequestContext, scheme: String) async throws
        -> PhoneDevice
    {
        let client = requestContext.clientAddress
        if let key = Self.presentedKey(request) {
            let attempts = requestContext.credentialAttempts
            if let wait = attempts?.begin(client: client, kind: .deviceKey) {
                throw CredentialAttempts.limited(retryAfter: wait)
            }
            if let device = try devices.device(forKey: key) {
                attempts?.succeeded(client: client, kind: .deviceKey)
                return device
            }
            attempts?.failed(kind: .deviceKey)
            try await Task.sleep(for: CredentialAttempts.delay)
        }
        context.health.count("unauthorized")
        var error = APIError(
            .unauthorized, code: "unauthorized",
            message:
                "this feed needs a device key (as the password, a Bearer token or ?key=); register the phone with meridian devices add NAME"
        )
        error.headers[.wwwAuthenticate] = "\(scheme) realm=\"meridian\""
        throw error
    }

    static func presentedKey(_ request: Request) -> String? {
        if let header = request.headers[.authorization] {
            if header.hasPrefix("Bearer ") { return String(header.dropFirst(7)) }
            if header.hasPrefix("Basic "), let data = Data(base64Encoded: String(header.dropFirst(6))),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            {
                return String(pair[pair.index(after: colon)...])
            }
        }
        return OsmAndParameters.parameters(request.uri.query ?? "")["key"]
    }

    /// Checks the points, hands those that pass to the host (late ones to its `LateFixTap`, for the run tracker)
    /// and updates the counters.
    private func deliver(_ decoded: [DecodedPoint], from device: PhoneDevice) {
        let accepted = feeds.accept(decoded, from: device.id)
        let source = "\(context.id)/\(device.id)"
        for point in accepted.current {
            if let fix = point.fix(providerID: source) { context.emit(fix) }
        }
        context.plugin.resources[LateFixTap.Key.self]?.offer(accepted.late.compactMap { $0.fix(providerID: source) })
        let passed = accepted.current.count + accepted.late.count
        if passed > 0, context.health.snapshot.state != .connected {
            context.health.update(.connected, message: "receiving from phones")
        }
        context.health.setCounters(feeds.totals())
        let state = feeds.state(of: device.id)
        if decoded.count > passed, let reason = state.lastRejection {
            context.logger.debug(
                "device \(String(reflecting: device.id)): \(decoded.count - passed) of \(decoded.count) points not taken; last rejection: \(String(reflecting: reason))"
            )
        }
    }

    private static func response(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
