import Foundation
import Hummingbird
import MapLinkCore
import MeridianCore
import MeridianHTTP
import MeridianWeb

/// The flyers page (`/flyers`): flyers nearest first from the live position, or from a position typed or picked
/// on the map, with distances in the configured units, a category filter, a map, and "Open in Maps" in the
/// map-links plugin's style; and the upload of a GeoJSON or CSV file (`POST /flyers/import`).
extension FlyerPlugin: WebPages {
    package var webNavigation: [NavigationLink] { [NavigationLink("Flyers", path: "/flyers")] }

    package func addPages(to pages: RouterGroup<MeridianRequestContext>, site: WebSite) {
        pages.get("flyers") { request, _ in
            let parameters = request.uri.queryParameters
            var page = FlyersPage(plugin: self, site: site)
            page.lat = parameters["lat"].map(String.init) ?? ""
            page.lon = parameters["lon"].map(String.init) ?? ""
            page.category = parameters["category"].map(String.init) ?? ""
            if let count = parameters["imported"].flatMap({ Int($0) }) {
                page.imported = count == 1 ? "1 flyer was imported." : "\(count) flyers were imported."
            }
            return try await page.response()
        }
        pages.post("flyers/import") { request, _ in
            let form = try await FormData.read(request, limit: 32 << 20)
            var page = FlyersPage(plugin: self, site: site)
            guard let file = form.files.first(where: { $0.fieldName == "file" }), !file.data.isEmpty else {
                page.uploadFile = "The upload"
                page.uploadErrors = ["no file was chosen, or it is empty; choose a .geojson or .csv file"]
                return try await page.response(status: .badRequest)
            }
            let read = FlyerUpload.read(
                file.data, filename: file.filename, format: form["format"], timeZone: self.context.timeZone)
            guard read.errors.isEmpty else {
                page.uploadFile = file.filename.isEmpty ? "The file" : file.filename
                page.uploadErrors = read.errors.map(\.description)
                return try await page.response(status: .badRequest)
            }
            do {
                try await self.catalog.write(read.flyers, mode: .upsert)
            } catch {
                page.uploadFile = file.filename
                page.uploadErrors = ["\(error)"]
                return try await page.response(status: .internalServerError)
            }
            return site.redirect(to: "/flyers?imported=\(read.flyers.count)")
        }
    }

    package func nowSections(site: WebSite) async -> [String] { [] }

    /// The link style the user chose for the map-links plugin, else this plugin's own `map_style`.
    var mapLinks: MapLinkBuilder {
        context.resources[MapLinkDefaultsKey.self] ?? search.presenter.mapLinks
    }
}

/// Reading an uploaded flyer file: GeoJSON or CSV as chosen, else by the file's name, else by its first character.
enum FlyerUpload {
    /// At most this many problems are listed.
    static let errorLimit = 50

    static func read(_ data: Data, filename: String, format: String?, timeZone: TimeZone) -> (
        flyers: [Flyer], errors: [FlyerInputError]
    ) {
        let name = filename.lowercased()
        let firstCharacter = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let isCSV =
            format.map { $0 == "csv" } ?? false
            || ((format ?? "").isEmpty
                && (name.hasSuffix(".csv")
                    || (!name.hasSuffix(".json") && !name.hasSuffix(".geojson") && firstCharacter != UInt8(ascii: "{"))))
        return isCSV
            ? CSVFlyers.readAll(data, errorLimit: errorLimit, timeZone: timeZone)
            : GeoJSONFlyers.readAll(data, errorLimit: errorLimit, timeZone: timeZone)
    }
}
