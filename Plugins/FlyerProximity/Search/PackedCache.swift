import Foundation
import MeridianCore

/// The SpatiaLite catalogue's cache: the packed index read from the database at start, the flyers
/// written since in a `FlyerIndex` on top (their packed slots marked dead), and the text of the
/// flyers a search returns read from the database.
final class PackedCache: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var base: PackedFlyerIndex
    private var dead: SlotSet
    /// Flyers written since `base` was built.
    let changed: FlyerIndex
    let repository: FlyerRepository

    init(cellSize: Double, repository: FlyerRepository) {
        base = PackedIndexBuilder(cellSize: cellSize).build()
        dead = SlotSet(capacity: 0)
        changed = FlyerIndex(cellSize: cellSize)
        self.repository = repository
    }

    /// Number of flyers.
    var count: Int { lock.reading { base.count - dead.count + changed.count } }

    /// Flyers written since the packed index was built.
    var changedCount: Int { changed.count }

    /// Makes `index` the packed index, with nothing on top.
    func replaceBase(with index: PackedFlyerIndex) {
        lock.writing {
            base = index
            dead = SlotSet(capacity: index.count)
            changed.replaceContents(with: FlyerIndex(cellSize: index.layout.cellSize))
        }
    }

    /// Adds flyers, replacing any with the same id.
    func upsert(_ flyers: [Flyer]) {
        lock.writing {
            for flyer in flyers { if let slot = base.slot(id: flyer.id) { dead.insert(slot) } }
            changed.upsert(flyers)
        }
    }

    /// Removes flyer `id`.
    func remove(id: String) {
        lock.writing {
            if let slot = base.slot(id: id) { dead.insert(slot) }
            changed.remove(id: id)
        }
    }

    /// The query's page with the flyers read from the database; nil when the database no longer holds
    /// a returned flyer as the cache does (the cache is behind the change log).
    func nearby(_ query: NearbyQuery) throws(FlyerStoreError) -> NearbyMatches? {
        let (index, packed, written) = lock.reading { (base, base.nearby(query, excluding: dead), changed.nearby(query)) }
        guard let read = try hydrate(packed.matches, of: index) else { return nil }
        let all = (read + written.matches).sorted { $0.position.precedes($1.distance, $1.flyer.id) }
        let limit = max(1, query.limit)
        return NearbyMatches(matches: Array(all.prefix(limit)), hasMore: all.count > limit || packed.hasMore || written.hasMore)
    }

    /// Reads the flyers of `matches` and checks each is still what `base` holds.
    private func hydrate(_ matches: [PackedFlyerIndex.Match], of base: PackedFlyerIndex) throws(FlyerStoreError) -> [NearbyMatch]? {
        guard !matches.isEmpty else { return [] }
        var byID: [String: Flyer] = [:]
        for flyer in try repository.flyers(ids: matches.map(\.position.id)) { byID[flyer.id] = flyer }
        var result: [NearbyMatch] = []
        for match in matches {
            guard let flyer = byID[match.position.id], base.describes(match.slot, flyer) else { return nil }
            result.append(NearbyMatch(flyer: flyer, distance: match.position.distance, nearest: match.nearest))
        }
        return result
    }
}

extension PackedCache: ProximitySource {
    func candidates(near position: Coordinate, margin: Double, at instant: Date) throws(FlyerStoreError) -> [NearbyMatch] {
        let (packed, written) = lock.reading {
            let radius = max(base.largestPointRadius, changed.largestPointRadius) + margin
            let packed = base.within(radius, of: position, at: instant, excluding: dead).filter { match in
                let slot = base.slots[Int(match.slot)]
                return match.position.distance <= (slot.area >= 0 ? 0 : slot.radius) + margin
            }
            return (packed, changed.candidates(near: position, margin: margin, at: instant))
        }
        var byID: [String: Flyer] = [:]
        for flyer in try repository.flyers(ids: packed.map(\.position.id)) { byID[flyer.id] = flyer }
        // A flyer deleted since the cache last followed the change log is left out, as it will be then.
        let read = packed.compactMap { match in
            byID[match.position.id].map { NearbyMatch(flyer: $0, distance: match.position.distance, nearest: match.nearest) }
        }
        return (read + written).sorted { $0.position.precedes($1.distance, $1.flyer.id) }
    }

    func flyer(id: String) throws(FlyerStoreError) -> Flyer? {
        if let flyer = changed.flyer(id: id) { return flyer }
        let live = lock.reading { base.slot(id: id).map { !dead.contains($0) } ?? false }
        return live ? try repository.flyer(id: id) : nil
    }

    func distance(id: String, from center: Coordinate) -> Double? {
        if let distance = changed.distance(id: id, from: center) { return distance }
        return lock.reading { base.slot(id: id).flatMap { dead.contains($0) ? nil : base.distance($0, from: center).distance } }
    }

    var largestPointRadius: Double { lock.reading { max(base.largestPointRadius, changed.largestPointRadius) } }
}

/// Searches through a `PackedCache`: when the database no longer holds a returned flyer as the cache
/// does, the catalogue catches up with the change log and searches again; should that still not
/// agree, the database answers.
struct PackedSearch: FlyerSearching {
    let cache: PackedCache
    let database: SpatiaLiteSearch
    let catchUp: @Sendable () async throws(FlyerStoreError) -> Void

    func nearby(_ query: NearbyQuery) async throws(FlyerStoreError) -> NearbyMatches {
        if let page = try cache.nearby(query) { return page }
        try await catchUp()
        if let page = try cache.nearby(query) { return page }
        return try await database.nearby(query)
    }

    func byTitle(limit: Int, category: String?, at instant: Date, includeInactive: Bool,
                 after: TitlePosition?) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        try await database.byTitle(limit: limit, category: category, at: instant, includeInactive: includeInactive, after: after)
    }

    func list(limit: Int, after: String?) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        try await database.list(limit: limit, after: after)
    }

    /// The flyer as far as the cache has followed the change log (as searches see it), its text from the database.
    func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        try cache.flyer(id: id)
    }
}
