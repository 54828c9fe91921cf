import Foundation
import MeridianCore
import MeridianTesting
import Testing
import Workloads

@testable import FlyerProximity

@Suite("GeoJSON and CSV import and export")
struct ImportExportTests {
    private let collection = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":"bakery","geometry":{"type":"Point","coordinates":[2.3522,48.8566]},
           "properties":{"title":"Fresh bread","category":"food","radius_m":80,"valid_until":"2030-01-01"}},
          {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[2.30,48.85],[2.31,48.85],[2.31,48.86],[2.30,48.85]]]},
           "properties":{"id":"market","title":"Market","valid_from":"2024-05-01T08:00:00+02:00"}},
          {"type":"Feature","id":7,"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[0.1,0],[0.1,0.1],[0,0]]],[[[1,1],[1.1,1],[1.1,1.1],[1,1]]]]},
           "properties":{"title":"Two fields"}}]}
        """

    @Test("ids come from the Feature id, properties.id or a number; fields and geometries are kept")
    func readsGeoJSON() throws {
        let flyers = try GeoJSONFlyers.read(Data(collection.utf8))
        #expect(flyers.map(\.id) == ["bakery", "market", "7"])
        #expect(flyers[0].radiusM == 80 && flyers[0].category == "food")
        // a bare date's whole day (here UTC)
        #expect(flyers[0].validUntil.map(ISO8601.string) == "2030-01-01T23:59:59.999Z")
        #expect(flyers[1].validFrom == ISO8601.date(from: "2024-05-01T06:00:00Z"))
        #expect(flyers[1].radiusM == Flyer.defaultRadius)
        #expect(flyers[2].geometry.polygons.count == 2)
    }

    private func geojsonError(_ feature: String) -> FlyerInputError? {
        let text =
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{\"title\":\"ok\"}},\(feature)]}"
        do {
            _ = try GeoJSONFlyers.read(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("a bad feature rejects the file, naming the feature index, the field and the problem")
    func geojsonErrors() throws {
        let unclosed = try #require(
            geojsonError(
                """
                {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]},"properties":{"title":"x"}}
                """))
        #expect(unclosed.location == "features[1]" && unclosed.field == "geometry.coordinates[0]")
        #expect(unclosed.message.contains("not closed"))
        let swapped = try #require(
            geojsonError(
                """
                {"type":"Feature","geometry":{"type":"Point","coordinates":[48.85,120.3]},"properties":{"title":"x"}}
                """))
        #expect(swapped.message.contains("swapped"))
        let untitled = try #require(
            geojsonError(
                """
                {"type":"Feature","geometry":{"type":"Point","coordinates":[2,48]},"properties":{"category":"food"}}
                """))
        #expect(untitled.field == "properties.title" && untitled.message.contains("missing title"))
        let nul = try #require(
            geojsonError(
                """
                {"type":"Feature","geometry":{"type":"Point","coordinates":[2,48]},"properties":{"title":"x","address":"1 rue\\u0000 B"}}
                """))
        #expect(nul.field == "properties.address" && nul.message.contains("NUL"), "\(nul)")
        let badDate = try #require(
            geojsonError(
                """
                {"type":"Feature","geometry":{"type":"Point","coordinates":[2,48]},"properties":{"title":"x","valid_until":"next week"}}
                """))
        #expect(badDate.field == "properties.valid_until" && badDate.description.contains("ISO 8601"))
    }

    @Test("CSV errors name the line (counting quoted line breaks) and the column")
    func csvErrors() throws {
        let good =
            "id,title,lat,lon,category,address,description,url,radius_m,valid_from,valid_until\n"
            + "a,\"Cat,\nlost\",48.85,2.35,lost,,,,50,,\n"
        #expect(try CSVFlyers.read(Data(good.utf8))[0].title == "Cat,\nlost")
        let swapped = good + "b,Sale,2.35,248.85,sale,,,,,,\n"
        #expect(
            throws: FlyerInputError(location: "line 4", field: "lon", message: "longitude 248.85 is outside -180...180")
        ) {
            try CSVFlyers.read(Data(swapped.utf8))
        }
        let latitude = good + "c,Sale,120,48,sale,,,,,,\n"
        let error = try #require(throws: FlyerInputError.self) { try CSVFlyers.read(Data(latitude.utf8)) }
        #expect(error.location == "line 4" && error.field == "lat" && error.message.contains("swapped"))
        let noTitle = good + "d,,1,1,,,,,,,\n"
        #expect((try? CSVFlyers.read(Data(noTitle.utf8))) == nil)
    }

    @Test(
        "an import is all or nothing: a conflicting id rolls back the rows before it", arguments: FlyerBackend.allCases)
    func atomicWrite(_ backend: FlyerBackend) async throws {
        try await backend.withStore { repository in
            let flyers = try GeoJSONFlyers.read(Data(collection.utf8))
            try await repository.write([flyers[1]], mode: .create)
            await #expect(throws: FlyerStoreError.duplicateID("market")) {
                try await repository.write(flyers, mode: .create)
            }
            #expect(try await repository.all().map(\.id) == ["market"])
            await #expect(throws: FlyerStoreError.repeatedID("bakery", first: 0, second: 1)) {
                try await repository.write([flyers[0], flyers[0]], mode: .upsert)
            }
        }
    }

    @Test("export then import gives the same flyers, for GeoJSON and for CSV", arguments: FlyerBackend.allCases)
    func roundTrip(_ backend: FlyerBackend) async throws {
        try await backend.withStore { repository in
            var workload = FlyerWorkload(.init(seed: 5, areaShare: 0.3, includePolar: true, inactiveShare: 0.3))
            var flyers = (0..<300).map { workload.flyer(number: $0) }
            flyers[0].description = "Quote \" comma , newline \n tab \t done"
            flyers[0].url = "https://example.org/a?b=c&d=e"
            try await repository.write(flyers, mode: .create)
            let stored = try await repository.all()
            var geojson = ""
            GeoJSONFlyers.write(stored) { geojson += $0 }
            let reread = try GeoJSONFlyers.read(Data(geojson.utf8))
            #expect(reread == stored)
            if let index = reread.indices.first(where: { reread[$0] != stored[$0] }) {
                Issue.record("first difference: \(reread[index]) vs \(stored[index])")
            }
            let points = stored.filter { if case .point = $0.geometry { return true } else { return false } }
            var csv = ""
            try CSVFlyers.write(points) { csv += $0 }
            #expect(try CSVFlyers.read(Data(csv.utf8)) == points)
            #expect(throws: FlyerInputError.self) { try CSVFlyers.write(stored) { _ in } }
            // Read back from the database, the flyers are the ones written (sorted by id as the store sorts).
            #expect(stored == flyers.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) })
        }
    }
}
