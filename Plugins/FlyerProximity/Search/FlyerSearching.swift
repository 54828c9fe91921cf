import Foundation
import MeridianCore

/// What answers searches and reads: the in-memory index (a cache of the store, `FlyerIndex`), or
/// the database itself when the cache is not warm (`PostGISSearch`). Both give the same answers.
package protocol FlyerSearching: Sendable {
    /// The query's page: flyers sorted by exact distance, then id.
    func nearby(_ query: NearbyQuery) async throws(FlyerStoreError) -> NearbyMatches
    /// The area query's page: the flyers it matches, by its distance (see `AreaQuery`), then id.
    func area(_ query: AreaQuery) async throws(FlyerStoreError) -> NearbyMatches
    /// Flyers sorted by title then id (for a user without a location), only those with `text`'s words when given.
    func byTitle(
        limit: Int, category: String?, at instant: Date, includeInactive: Bool,
        after: TitlePosition?, text: TextQuery?
    ) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool)
    /// Every flyer sorted by id, a page at a time.
    func list(limit: Int, after: String?) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool)
    /// The flyer with this id.
    func flyer(id: String) async throws(FlyerStoreError) -> Flyer?
}

extension FlyerIndex: FlyerSearching {}

extension NearbyMatch {
    /// `flyer` measured exactly from `center`, when it is within `radius` and after `after`.
    init?(_ flyer: Flyer, from center: Coordinate, within radius: Double, after: DistancePosition?) {
        guard let prepared = PreparedFlyer(flyer) else { return nil }
        let (distance, point) = prepared.distance(from: center)
        guard distance <= radius else { return nil }
        if let after, !after.precedes(distance, flyer.id) { return nil }
        self.init(flyer: flyer, distance: distance, nearest: point)
    }
}
