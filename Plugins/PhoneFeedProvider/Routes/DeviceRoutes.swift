import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP

/// `/v1/devices`: registering, listing, rotating and removing phones (admin token, like every other route).
struct DeviceRoutes: Sendable {
    let devices: DeviceStore
    let feeds: DeviceFeeds
    let sampling: SamplingControl

    struct AddRequest: Decodable, Sendable {
        var name: String
        var `protocol`: FeedProtocol?
    }

    /// A new key and where to use it, shown once.
    struct Credentials: Encodable, Sendable {
        var id: String
        var key: String
        var urls: DeviceURLs
        /// The `owntracks:///config?inline=` link that sets OwnTracks up in one tap or scan.
        var owntracksConfig: String

        init(id: String, key: String, base: String) {
            self.id = id
            self.key = key
            urls = DeviceURLs(base: base, key: key)
            owntracksConfig = OwnTracksSetup.link(url: urls.owntracks, name: id, key: key)
        }
    }

    /// A device and what it has sent since the service started.
    struct Listed: Encodable, Sendable {
        var id: String
        var `protocol`: FeedProtocol
        var createdAt: Date
        var lastFixAgeS: Double?
        var feed: DeviceFeedState
        /// OwnTracks devices: the monitoring mode Meridian wants, last sent and last reported.
        var sampling: SamplingState?
    }

    struct Listing: Encodable, Sendable { var devices: [Listed] }

    func add(to v1: RouterGroup<MeridianRequestContext>) {
        v1.get("devices") { request, _ in
            try request.allowQuery([])
            let now = Date()
            return JSONResponse(
                Listing(
                    devices: try devices.list().map { device in
                        let feed = feeds.state(of: device.id)
                        return Listed(
                            id: device.id, protocol: device.feedProtocol, createdAt: device.createdAt,
                            lastFixAgeS: feed.lastFix.map { now.timeIntervalSince($0) }, feed: feed,
                            sampling: device.feedProtocol == .owntracks ? sampling.sampling(of: device.id) : nil)
                    }))
        }
        v1.post("devices") { request, _ in
            try request.allowQuery([])
            let body = try await request.decodeJSON(AddRequest.self, limit: 64 << 10)
            let key = try mapped { try devices.add(name: body.name, protocol: body.protocol ?? .owntracks) }
            return JSONResponse(Credentials(id: body.name, key: key, base: Self.base(request)), status: .created)
        }
        v1.post("devices/:id/rotate") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            let key = try mapped { try devices.rotate(name: id) }
            return JSONResponse(Credentials(id: id, key: key, base: Self.base(request)))
        }
        v1.delete("devices/:id") { request, context in
            try request.allowQuery([])
            let id = try context.parameters.decoded("id")
            try mapped { try devices.remove(name: id) }
            return Response(status: .noContent)
        }
    }

    /// The URL the request reached this server at.
    static func base(_ request: Request) -> String {
        "http://\(request.head.authority ?? "127.0.0.1")"
    }

    private func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DeviceError {
            switch error.kind {
            case .invalidName: throw APIError.badRequest(error.message, code: "invalid_device_name")
            case .exists: throw APIError.conflict(error.message, code: "device_exists")
            case .notFound: throw APIError.notFound(error.message, code: "device_not_found")
            }
        }
    }
}
