import CMalloc
import Foundation
import MeridianCore

/// The SpatiaLite catalogue's cache: the packed index read from the database at start, with the
/// flyers written since in a `FlyerIndex` on top (their packed slots marked dead).
final class PackedCache: @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var packedIndex: PackedFlyerIndex
    private var dead: SlotSet
    private var baseChange: Int64 = 0
    /// Flyers written since `packedIndex` was built.
    let changed: FlyerIndex

    init(cellSize: Double) {
        packedIndex = PackedIndexBuilder(cellSize: cellSize).build()
        dead = SlotSet(capacity: 0)
        changed = FlyerIndex(cellSize: cellSize)
    }

    /// Number of flyers.
    var count: Int { lock.reading { packedIndex.count - dead.count + changed.count } }

    /// How many flyers lie on top of the packed index (written since) or were taken out of it.
    var overlayCount: Int { lock.reading { dead.count + changed.count } }

    /// The ids of the flyers written or deleted since the packed index was built: those on top, and those whose
    /// packed slots are dead.
    var changedIDs: Set<String> {
        lock.reading { changed.ids.union(dead.members.lazy.map { self.packedIndex.ids[Int($0)] }) }
    }

    /// The packed index and the change-log entry it was built at.
    var base: (index: PackedFlyerIndex, change: Int64) { lock.reading { (packedIndex, baseChange) } }

    /// Makes `index`, built at change `change`, the packed index, with nothing on top.
    func replaceBase(with index: PackedFlyerIndex, change: Int64) {
        lock.writing {
            packedIndex = index
            baseChange = change
            dead = SlotSet(capacity: index.count)
            changed.replaceContents(with: FlyerIndex(cellSize: index.layout.cellSize))
        }
        // Reading or building an index frees about as much as it keeps (rows read, texts before compression, the
        // index replaced); glibc holds freed memory for itself unless it is handed back.
        malloc_trim(0)
    }

    /// Adds flyers, replacing any with the same id.
    func upsert(_ flyers: [Flyer]) {
        lock.writing {
            for flyer in flyers { if let slot = packedIndex.slot(id: flyer.id) { dead.insert(slot) } }
            changed.upsert(flyers)
        }
    }

    /// Removes flyer `id`.
    func remove(id: String) {
        lock.writing {
            if let slot = packedIndex.slot(id: id) { dead.insert(slot) }
            changed.remove(id: id)
        }
    }

    /// Puts `found` in and takes out the flyers of `ids` that are not among them.
    func apply(_ found: [Flyer], changed ids: Set<String>) {
        let present = Set(found.map(\.id))
        upsert(found)
        for id in ids where !present.contains(id) { remove(id: id) }
    }

    /// A page of flyers in id order, after id `after`.
    func list(limit: Int, after: String?) -> (flyers: [Flyer], hasMore: Bool) {
        let keep = max(1, limit) + 1
        let written = changed.list(limit: keep, after: after).flyers
        let packed = lock.reading {
            // The first slot in id order whose id comes after `after`.
            var low = 0, high = packedIndex.byID.count
            let key = Array((after ?? "").utf8)
            while after != nil, low < high {
                let middle = (low + high) / 2
                let id = packedIndex.ids.bytes(Int(packedIndex.byID[middle]))
                if key.lexicographicallyPrecedes(id) { high = middle } else { low = middle + 1 }
            }
            return packedIndex.byID[low...].lazy.filter { !self.dead.contains($0) }.prefix(keep)
                .map { self.packedIndex.flyer($0) }
        }
        let merged = (packed + written).sorted { Array($0.id.utf8).lexicographicallyPrecedes($1.id.utf8) }
        return (Array(merged.prefix(keep - 1)), merged.count >= keep)
    }

    /// A page of flyers in title-then-id order (as `FlyerIndex.byTitle`), by a pass over every flyer: for a listing
    /// without a location while the database is away.
    func byTitle(
        limit: Int, category: String?, at instant: Date, includeInactive: Bool, after: TitlePosition?,
        text: TextQuery?
    ) -> (flyers: [Flyer], hasMore: Bool) {
        let keep = max(1, limit) + 1
        let written = changed.byTitle(
            limit: keep, category: category, at: instant, includeInactive: includeInactive, after: after, text: text
        ).flyers
        let packed = lock.reading {
            packedIndex.byTitle(
                keep: keep, category: category, at: instant, includeInactive: includeInactive, after: after,
                text: text, excluding: dead)
        }
        var best = TitleOrder<Flyer>(keep: keep)
        for flyer in packed + written { best.offer(flyer.title, flyer.id, flyer) }
        return (best.items.prefix(keep - 1).map(\.element), best.items.count >= keep)
    }

    /// Whether a text query can be answered here without waiting for the packed index's word index. When it cannot,
    /// the word index is started aside (once per packed index), and the database answers until it is made.
    func textReady() -> Bool {
        let index = lock.reading { packedIndex }
        if index.hasWords { return true }
        index.makeWordsAside()
        return false
    }

    /// Makes the packed index's word index now, if it is not made yet (text searches then find it made).
    func makeWords() {
        _ = lock.reading { packedIndex }.words()
    }

    /// The query's page: the packed index's and the written flyers' pages merged.
    func nearby(_ query: NearbyQuery) -> NearbyMatches {
        let (index, packed, written) = lock.reading {
            (packedIndex, packedIndex.nearby(query, excluding: dead), changed.nearby(query))
        }
        return Self.merge(packed, of: index, written, limit: query.limit)
    }

    /// The area query's page: the packed index's and the written flyers' pages merged.
    func area(_ query: AreaQuery) -> NearbyMatches {
        let (index, packed, written) = lock.reading {
            (packedIndex, packedIndex.area(query, excluding: dead), changed.area(query))
        }
        return Self.merge(packed, of: index, written, limit: query.limit)
    }

    /// One page from the packed index's page and the written flyers' page, both in (distance, id) order.
    private static func merge(
        _ packed: (matches: [PackedFlyerIndex.Match], hasMore: Bool), of index: PackedFlyerIndex,
        _ written: NearbyMatches, limit: Int
    ) -> NearbyMatches {
        let limit = max(1, limit)
        let read = index.nearbyMatches(packed.matches)
        guard !written.matches.isEmpty else { return NearbyMatches(matches: read, hasMore: packed.hasMore) }
        let all = (read + written.matches).sorted { $0.position.precedes($1.distance, $1.flyer.id) }
        return NearbyMatches(
            matches: Array(all.prefix(limit)), hasMore: all.count > limit || packed.hasMore || written.hasMore)
    }
}

extension PackedCache: ProximitySource {
    func candidates(near position: Coordinate, margin: Double, at instant: Date) -> [NearbyMatch] {
        let (index, packed, written) = lock.reading {
            let radius = max(packedIndex.largestPointRadius, changed.largestPointRadius) + margin
            let packed = packedIndex.within(radius, of: position, at: instant, excluding: dead).filter { match in
                let slot = packedIndex.slots[Int(match.slot)]
                return match.position.distance <= (slot.area >= 0 ? 0 : slot.radius) + margin
            }
            return (packedIndex, packed, changed.candidates(near: position, margin: margin, at: instant))
        }
        let read = index.nearbyMatches(packed)
        return (read + written).sorted { $0.position.precedes($1.distance, $1.flyer.id) }
    }

    func flyer(id: String) -> Flyer? {
        if let flyer = changed.flyer(id: id) { return flyer }
        return lock.reading { packedIndex.slot(id: id).flatMap { dead.contains($0) ? nil : packedIndex.flyer($0) } }
    }

    func distance(id: String, from center: Coordinate) -> Double? {
        if let distance = changed.distance(id: id, from: center) { return distance }
        return lock.reading {
            packedIndex.slot(id: id).flatMap {
                dead.contains($0) ? nil : packedIndex.distance($0, from: center).distance
            }
        }
    }

    var largestPointRadius: Double { lock.reading { max(packedIndex.largestPointRadius, changed.largestPointRadius) } }
}

/// Searches through a `PackedCache`; listings by id and by title come from the database.
struct PackedSearch: FlyerSearching {
    let cache: PackedCache
    let database: any FlyerSearching

    /// A text query before the packed index's words are made goes to the database (exact and current) while they
    /// are made aside, so that it does not wait seconds for them; the cache answers when the database cannot.
    func nearby(_ query: NearbyQuery) async throws(FlyerStoreError) -> NearbyMatches {
        if query.text != nil, !cache.textReady() {
            do { return try await database.nearby(query) } catch .unavailable(_) {}
        }
        return cache.nearby(query)
    }

    /// As `nearby` for text.
    func area(_ query: AreaQuery) async throws(FlyerStoreError) -> NearbyMatches {
        if query.text != nil, !cache.textReady() {
            do { return try await database.area(query) } catch .unavailable(_) {}
        }
        return cache.area(query)
    }

    func byTitle(
        limit: Int, category: String?, at instant: Date, includeInactive: Bool,
        after: TitlePosition?, text: TextQuery?
    ) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        do {
            return try await database.byTitle(
                limit: limit, category: category, at: instant, includeInactive: includeInactive, after: after,
                text: text)
        } catch .unavailable(_) {
            return cache.byTitle(
                limit: limit, category: category, at: instant, includeInactive: includeInactive, after: after,
                text: text)
        }
    }

    /// From the database; from the cache (as far as it has followed the change log) while the database is away.
    func list(limit: Int, after: String?) async throws(FlyerStoreError) -> (flyers: [Flyer], hasMore: Bool) {
        do {
            return try await database.list(limit: limit, after: after)
        } catch .unavailable(_) {
            return cache.list(limit: limit, after: after)
        }
    }

    /// The flyer as far as the cache has followed the change log (as searches see it).
    func flyer(id: String) async throws(FlyerStoreError) -> Flyer? {
        cache.flyer(id: id)
    }
}
