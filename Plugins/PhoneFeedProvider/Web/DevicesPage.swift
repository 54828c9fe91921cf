import Foundation
import Hummingbird
import MeridianCore
import MeridianHTTP
import MeridianWeb

/// The Devices page (`/devices`): lists the phones (last fix, battery, state), adds one (`POST /devices/add`: its key,
/// what to type into the app, and for OwnTracks the QR code of its set-up link) and revokes one (`POST /devices/remove`).
extension PhoneFeedProvider: WebPages {
    package var webNavigation: [NavigationLink] { [NavigationLink("Devices", path: "/devices")] }

    package func addPages(to pages: RouterGroup<MeridianRequestContext>, site: WebSite) {
        let page = DevicesPage(site: site, devices: devices, feeds: feeds, sampling: sampling)
        let devices = self.devices
        pages.get("devices") { request, _ in
            try page.response(removed: request.uri.queryParameters["removed"].map(String.init))
        }
        pages.post("devices/add") { request, _ in
            let form = try await FormData.read(request, limit: 64 << 10)
            let name = form["name"] ?? ""
            let feedProtocol = form["protocol"].flatMap(FeedProtocol.init(rawValue:)) ?? .owntracks
            do {
                let key = try devices.add(name: name, protocol: feedProtocol)
                let credentials = DeviceRoutes.Credentials(id: name, key: key, base: DeviceRoutes.base(request))
                return try page.response(added: (credentials, feedProtocol), status: .created)
            } catch let error as DeviceError {
                return try page.response(error: error.message, status: error.kind == .exists ? .conflict : .badRequest)
            }
        }
        pages.post("devices/remove") { request, _ in
            let name = try await FormData.read(request, limit: 64 << 10)["name"] ?? ""
            do {
                try devices.remove(name: name)
            } catch let error as DeviceError {
                return try page.response(error: error.message, status: .notFound)
            }
            return site.redirect(to: "/devices?removed=\(PercentEncoding.encoded(name))")
        }
    }

    package func nowSections(site: WebSite) async -> [String] { [] }
}

/// One rendering of the Devices page.
struct DevicesPage {
    let site: WebSite
    let devices: DeviceStore
    let feeds: DeviceFeeds
    let sampling: SamplingControl
    /// A device that has sent nothing for this long is shown as quiet.
    static let quietAfter: TimeInterval = 600

    func response(
        added: (DeviceRoutes.Credentials, FeedProtocol)? = nil, removed: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let now = Date()
        let rows = try devices.list().map { device in
            let feed = feeds.state(of: device.id)
            let age = feed.lastArrival.map { now.timeIntervalSince($0) }
            var state =
                age.map { $0 > Self.quietAfter ? "quiet" : "receiving" } ?? "nothing received since the service started"
            if device.feedProtocol == .owntracks, feed.lastArrival != nil {
                let mode = sampling.sampling(of: device.id)
                state += mode.reported.map { ", \($0 == .move ? "move" : "significant") mode" } ?? ""
            }
            return Row(
                name: device.id, app: device.feedProtocol.label,
                lastFix: feed.lastFix.map { "\(site.format.shortDay($0)) \(site.format.time($0))" } ?? "—",
                battery: feed.battery.map { "\(Int(($0 * 100).rounded())) %" } ?? "—", state: state)
        }
        let new = added.map { credentials, feedProtocol in
            New(
                name: credentials.id, key: credentials.key,
                instructions: credentials.urls.instructions(
                    for: feedProtocol, name: credentials.id, key: credentials.key
                ).joined(separator: "\n"),
                link: credentials.owntracksConfig,
                qr: feedProtocol == .owntracks ? QRCode(bytes: Array(credentials.owntracksConfig.utf8))?.svg() : nil)
        }
        let model = Model(
            added: new, removed: removed, error: error, devices: rows, hasDevices: !rows.isEmpty,
            apps: FeedProtocol.allCases.map { App(value: $0.rawValue, label: $0.label) })
        return try site.page(
            title: "Devices", body: DeviceTemplates.set.render("devices", model), path: "/devices", status: status)
    }

    struct Row { var name, app, lastFix, battery, state: String }
    struct New {
        var name, key, instructions, link: String
        var qr: String?
    }
    struct App { var value, label: String }
    struct Model {
        var added: New?
        var removed: String?
        var error: String?
        var devices: [Row]
        var hasDevices: Bool
        var apps: [App]
    }
}

extension FeedProtocol {
    /// The apps' names as people know them.
    var label: String {
        switch self {
        case .owntracks: "OwnTracks"
        case .osmand: "Traccar Client / OsmAnd"
        case .overland: "Overland"
        case .gpslogger: "GPSLogger"
        }
    }
}
