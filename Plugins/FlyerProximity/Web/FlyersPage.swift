import Foundation
import Hummingbird
import MapLinkCore
import MeridianCore
import MeridianHTTP
import MeridianWeb

/// One rendering of the flyers page, with what the request or the upload brought.
struct FlyersPage {
    let plugin: FlyerPlugin
    let site: WebSite
    var lat = ""
    var lon = ""
    var category = ""
    var imported: String?
    var uploadFile = ""
    var uploadErrors: [String] = []

    /// At most this many flyers are listed.
    static let limit = 50

    func response(status: HTTPResponse.Status = .ok) async throws -> Response {
        var model = Model(
            lat: lat, lon: lon, categoryFilter: category, categoryQuery: PercentEncoding.encoded(category),
            typed: !lat.isEmpty || !lon.isEmpty, imported: imported, leaflet: site.leafletAvailable,
            uploadFile: uploadFile, uploadErrors: uploadErrors, hasUploadErrors: !uploadErrors.isEmpty,
            oneError: uploadErrors.count == 1)
        model.categories = categories()
        var center: Coordinate?
        do {
            center = try typedCenter()
        } catch {
            model.error = error.description
        }
        let live = plugin.context.position.latestPosition
        let request = NearbyRequest(
            center: center, radius: plugin.options.defaultRadiusM, limit: Self.limit,
            category: category.isEmpty ? nil : category)
        var answer: NearbyResponse?
        if model.error == nil {
            do {
                answer = try await plugin.search.respond(
                    request, position: center == nil ? live : nil, catalog: plugin.catalog)
            } catch {
                model.error = "\(error)"
            }
        }
        let items = answer?.items ?? []
        let links = plugin.mapLinks
        model.items = items.map { item in
            let place = FlyerPlace(
                coordinate: (try? Coordinate(latitude: item.lat, longitude: item.lon)) ?? .zero,
                title: item.title, address: item.address)
            return Item(
                title: item.title, category: item.category, address: item.address, description: item.description,
                validUntil: item.validUntil.map { site.format.day($0) },
                webLink: item.url.flatMap { $0.hasPrefix("https://") || $0.hasPrefix("http://") ? $0 : nil },
                mapURL: (try? links.url(to: .flyer(place))) ?? item.mapUrl,
                distance: item.distanceText ?? "", direction: item.bearing.map(Self.compass))
        }
        model.hasItems = !model.items.isEmpty
        let centre = answer?.center.flatMap { try? Coordinate(latitude: $0.lat, longitude: $0.lon) }
        model.centreName = center == nil ? "you" : "the chosen position"
        let radius = plugin.options.defaultRadiusM.map { " within \(site.format.distance($0))" } ?? ""
        if answer?.locationAvailable == false {
            model.summary =
                "No position yet (waiting for GPS): flyers are listed by title. Type a position or click the map."
        } else if let centre {
            model.summary =
                "Nearest first\(radius) from \(NumberText.fixed(centre.latitude, decimals: 5)), \(NumberText.fixed(centre.longitude, decimals: 5))"
                + (center == nil ? " (your live position)" : "")
        }
        if site.leafletAvailable {
            model.mapData = site.mapData(await mapView(items: items, centre: centre), id: "flyer-data")
        }
        return try site.page(
            title: "Flyers", body: FlyerTemplates.set.render("flyers", model), path: "/flyers", status: status)
    }

    /// The typed position, when both fields are filled; one without the other, or a value that is no number,
    /// is a message for the page.
    func typedCenter() throws(PositionError) -> Coordinate? {
        let latText = lat.trimmingCharacters(in: .whitespaces), lonText = lon.trimmingCharacters(in: .whitespaces)
        guard !latText.isEmpty || !lonText.isEmpty else { return nil }
        guard let latitude = Double(latText), let longitude = Double(lonText) else {
            throw PositionError(
                description:
                    "Give both latitude and longitude as decimal degrees, such as 48.8566 and 2.3522 (or leave both empty to use your live position)."
            )
        }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw PositionError(description: "That position is not on Earth: \(error.description)")
        }
    }

    struct PositionError: Error, CustomStringConvertible {
        var description: String
    }

    /// The categories of the first thousand flyers, for the filter's suggestions.
    func categories() -> [String] {
        let flyers = plugin.catalog.first(1000)
        return Array(Set(flyers.compactMap(\.category).filter { !$0.isEmpty })).sorted()
    }

    func mapView(items: [FlyerResult], centre: Coordinate?) async -> MapView {
        var lines: [MapView.Line] = []
        var markers: [MapView.Marker] = []
        for item in items {
            if let flyer = try? await plugin.catalog.flyer(id: item.id) {
                for ring in flyer.geometry.polygons.flatMap({ $0 }) {
                    lines.append(MapView.Line(points: ring, colour: "#c2410c"))
                }
            }
            guard let point = try? Coordinate(latitude: item.lat, longitude: item.lon) else { continue }
            let detail = [item.distanceText, item.category, item.address].compactMap { $0 }.joined(separator: " · ")
            markers.append(
                MapView.Marker(
                    point, kind: .place, title: item.title, detail: detail.isEmpty ? nil : detail,
                    link: (try? plugin.mapLinks.url(
                        to: .flyer(FlyerPlace(coordinate: point, title: item.title, address: item.address))))
                        ?? item.mapUrl))
        }
        if let centre { markers.append(MapView.Marker(centre, kind: .centre, title: "Search centre")) }
        return MapView(lines: lines, markers: markers, pick: MapView.Pick(form: "near-form", lat: "lat", lon: "lon"))
    }

    /// "N", "NE", … for a bearing in degrees.
    static func compass(_ bearing: Double) -> String {
        let names = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        let index =
            Int(
                ((bearing.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 45)
                    .rounded()) % 8
        return names[index]
    }

    struct Model {
        var centreName = "you"
        var summary = ""
        var lat: String
        var lon: String
        var categoryFilter: String
        var categoryQuery: String
        var categories: [String] = []
        var typed: Bool
        var imported: String?
        var error: String?
        var items: [Item] = []
        var hasItems = false
        var leaflet: Bool
        var mapData = ""
        var uploadFile: String
        var uploadErrors: [String]
        var hasUploadErrors: Bool
        var oneError: Bool
    }

    struct Item {
        var title: String
        var category: String?
        var address: String?
        var description: String?
        var validUntil: String?
        var webLink: String?
        var mapURL: String?
        var distance: String
        var direction: String?
    }
}
