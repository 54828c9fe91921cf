import Foundation
import GRDB
import MeridianCore
import Synchronization

/// Searches answered by SpatiaLite itself, while the packed index is being built: candidates from
/// the R*Tree, every one measured exactly (WGS84, Karney) as the index does, so answers are the same.
///
/// - Points and small areas: the R*Tree entries meeting the query's latitude/longitude box
///   (`Geodesic.boundingBox`), widened by `margin` degrees. The R*Tree's boxes are rounded outward;
///   an area whose vertices span at most `wide` degrees either way bulges past them by far less
///   than the margin along its geodesic edges.
/// - Wider areas (those around a pole or across ±180° among them, whose vertex boxes do not hold
///   them): every one is measured. Their row ids are read from the R*Tree once per change of the
///   change log.
/// - Without a radius: growing radii (1 km, then 4× each time), as the index does.
/// - Listings by id and by title come from SQL in byte order, which is Swift's order of NFC text.
/// - A text query (`q`) takes the rows the FTS5 index `flyer_words` matches, each checked again in Swift.
final class SpatiaLiteSearch: FlyerSearching {
    let repository: SpatiaLiteFlyerStore
    private let wideAreas = Mutex<(change: Int64, rowids: String?)?>(nil)

    init(repository: SpatiaLiteFlyerStore) {
        self.repository = repository
    }

    /// The rows whose words the FTS5 text index matches (its bound argument: `TextQuery.fts5Match`). Each is
    /// then checked with `TextQuery.matches`, as the in-memory index checks, so both find the same flyers.
    static let textCondition = "rowid IN (SELECT rowid FROM flyer_words WHERE flyer_words MATCH ?)"

    static let margin = 1e-6
    static let wide = 0.01

    func nearby(_ query: NearbyQuery) async throws(FlyerStoreError) -> NearbyMatches {
        let wide = try wideAreaRowids()
        var failure: FlyerStoreError?
        let page = BestMatches<NearbyMatch>.page(query) { radius, keep in
            guard failure == nil else { return [] }
            do throws(FlyerStoreError) {
                return try within(radius, query, keep: keep, wide: wide)
            } catch {
                failure = error
                return []
            }
        }
        if let failure { throw failure }
        return NearbyMatches(matches: page.matches, hasMore: page.hasMore)
    }

    /// The best `keep` flyers within `radius` that pass the query's filters and cursor.
    private func within(_ radius: Double, _ query: NearbyQuery, keep: Int, wide: String?) throws(FlyerStoreError)
        -> [NearbyMatch]
    {
        let box = Geodesic.wgs84.boundingBox(center: query.center, radius: radius)
        var (sql, arguments) = Self.candidates(in: box, wide: wide)
        if let text = query.text {
            sql = "(\(sql)) AND \(Self.textCondition)"
            arguments += [text.fts5Match]
        }
        let filter = query.filter
        var best = BestMatches<NearbyMatch>(keep: keep, radius: radius, after: query.after)
        try repository.scan(sql, arguments) { flyer in
            guard filter.admits(flyer), let prepared = PreparedFlyer(flyer) else { return true }
            let (distance, point) = prepared.distance(from: query.center)
            best.offer(
                distance, id: { flyer.id }, match: { NearbyMatch(flyer: flyer, distance: distance, nearest: point) })
            return true
        }
        return best.items.map(\.match)
    }

    /// The row ids of the areas wider than `wide` degrees as a JSON array (one parameter, however many there
    /// are), nil when there are none; read again when the change log has moved.
    func wideAreaRowids() throws(FlyerStoreError) -> String? {
        let change = try repository.lastChange()
        if let known = wideAreas.withLock({ $0 }), known.change == change { return known.rowids }
        let rowids = try repository.rowids(
            "SELECT pkid FROM idx_flyers_geom WHERE xmax - xmin > ? OR ymax - ymin > ?", [Self.wide, Self.wide])
        let json = rowids.isEmpty ? nil : "[" + rowids.map(String.init).joined(separator: ",") + "]"
        wideAreas.withLock { $0 = (change, json) }
        return json
    }

    func byTitle(
        limit: Int, category: String?, at instant: Date, includeInactive: Bool,
        after: TitlePosition?, text: TextQuery?
    ) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        let keep = max(1, limit) + 1
        var condition = "1"
        var arguments: StatementArguments = []
        if let after {
            condition = "(title > ? OR (title = ? AND id > ?))"
            arguments = [after.title, after.title, after.id]
        }
        if let text {
            condition += " AND \(Self.textCondition)"
            arguments += [text.fts5Match]
        }
        let filter = FlyerFilter(category: category, at: instant, includeInactive: includeInactive, text: text)
        var found: [Flyer] = []
        try repository.scan("\(condition) ORDER BY title, id", arguments) { flyer in
            guard filter.admits(flyer) else { return true }
            found.append(flyer)
            return found.count < keep
        }
        return (Array(found.prefix(keep - 1)), found.count == keep)
    }

    func list(limit: Int, after: String?) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        let keep = max(1, limit) + 1
        var found: [Flyer] = []
        try repository.scan("id > ? ORDER BY id LIMIT ?", [after ?? "", keep]) {
            found.append($0)
            return true
        }
        return (Array(found.prefix(keep - 1)), found.count == keep)
    }

    func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try repository.flyer(id: id)
    }
}
