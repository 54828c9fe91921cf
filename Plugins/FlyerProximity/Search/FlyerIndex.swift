import Foundation
import MeridianCore

/// The in-memory search index over every stored flyer: a sparse grid of cells searched
/// nearest bound first, exact geodesic distances only for candidates whose chord lower
/// bound can still make the page.
///
/// The store (SpatiaLite or PostGIS) stays the source of truth; the index is a cache of it,
/// loaded at start and kept up to date from the store's change log (`FlyerCatalog`).
/// Thread-safe: searches share a read lock.
package final class FlyerIndex: @unchecked Sendable {
    /// Compact per-slot data scanned for every candidate.
    private struct Bounds {
        var anchor: EarthPoint
        var reach: Double
        var validFrom: Double
        var validUntil: Double
        var category: Int32
        var isArea: Bool
    }

    private struct State {
        var slots: [PreparedFlyer?] = []
        var bounds: [Bounds] = []
        var freeSlots: [Int32] = []
        var slotByID: [String: Int32] = [:]
        var categoryCodes: [String: Int32] = [:]
        var grid: CellGrid
        var largestPointRadius = 0.0
        var words = WordIndex()
    }

    private let lock = ReadWriteLock()
    private var state: State
    /// The category code meaning "no filter"; flyers without a category have `uncategorised`.
    private static let noCategory: Int32 = -1
    private static let uncategorised: Int32 = -2

    /// An empty index; `cellSize` is the grid cell edge in degrees.
    package init(cellSize: Double = 0.05) {
        state = State(grid: CellGrid(cellSize: cellSize))
    }

    /// Number of flyers.
    package var count: Int { lock.reading { state.slotByID.count } }

    /// The largest `radius_m` of any point flyer (an upper bound; it never shrinks).
    package var largestPointRadius: Double { lock.reading { state.largestPointRadius } }

    /// The ids of the flyers held.
    var ids: Set<String> { lock.reading { Set(state.slotByID.keys) } }

    /// Adds flyers, replacing any with the same id.
    package func upsert<Flyers: Sequence>(_ flyers: Flyers) where Flyers.Element == Flyer {
        var folder = SearchWords()
        let prepared = flyers.compactMap { flyer in PreparedFlyer(flyer).map { ($0, folder.words(of: flyer)) } }
        lock.writing {
            for (flyer, words) in prepared { Self.insert(flyer, words: words, into: &state) }
            state.words.finish()
        }
    }

    /// Makes this index hold what `other` holds (a full reload built aside, swapped in at once).
    package func replaceContents(with other: FlyerIndex) {
        let fresh = other.lock.reading { other.state }
        lock.writing { state = fresh }
    }

    /// Removes flyer `id`; false when there was none.
    @discardableResult
    package func remove(id: String) -> Bool {
        lock.writing { Self.remove(id: id, from: &state) }
    }

    /// The flyer with this id.
    package func flyer(id: String) -> Flyer? {
        lock.reading { state.slotByID[id].flatMap { state.slots[Int($0)]?.flyer } }
    }

    /// Where to head for flyer `id` from `origin` (the nearest boundary point of an area).
    package func target(id: String, from origin: Coordinate?) -> (flyer: Flyer, coordinate: Coordinate)? {
        let prepared = lock.reading { state.slotByID[id].flatMap { state.slots[Int($0)] } }
        return prepared.map { ($0.flyer, $0.target(from: origin)) }
    }

    /// The exact distance from `center` to flyer `id`.
    package func distance(id: String, from center: Coordinate) -> Double? {
        let prepared = lock.reading { state.slotByID[id].flatMap { state.slots[Int($0)] } }
        return prepared?.distance(from: center).distance
    }

    /// Every flyer whose distance to `center` is at most `radius`, each with its distance.
    func within(_ radius: Double, of center: Coordinate, at instant: Date) -> [NearbyMatch] {
        BestMatches<NearbyMatch>.all(within: radius, of: center, at: instant, position: \.position) { query in
            let page = nearby(query)
            return (page.matches, page.hasMore)
        }
    }

    // MARK: Search

    /// The query's page: flyers sorted by exact distance, then id.
    package func nearby(_ query: NearbyQuery) -> NearbyMatches {
        lock.reading {
            // No flyer, no match: skip the search box's geodesics (a packed cache asks its written flyers, most
            // often none, at every search).
            guard !state.slotByID.isEmpty, let category = categoryCode(query.category) else {
                return NearbyMatches(matches: [], hasMore: false)
            }
            var text: TextFilter?
            if let words = query.text {
                let limit = WordIndex.candidateLimit(keep: max(1, query.limit) + 1, count: state.slotByID.count)
                guard let filter = state.words.filter(words, candidateLimit: limit) else {
                    return NearbyMatches(matches: [], hasMore: false)
                }
                text = filter
            }
            let page = BestMatches<NearbyMatch>.page(query) { radius, keep in
                if let candidates = text?.candidates {
                    return among(candidates, query, radius: radius, keep: keep, category: category)
                }
                return pass(query, radius: radius, keep: keep, category: category, text: text)
            }
            return NearbyMatches(matches: page.matches, hasMore: page.hasMore)
        }
    }

    /// True when flyer `entry` passes the query's category and validity.
    private func admits(_ entry: Bounds, _ query: NearbyQuery, category: Int32) -> Bool {
        if category != Self.noCategory && entry.category != category { return false }
        let time = query.at.timeIntervalSince1970
        return query.includeInactive || (time >= entry.validFrom && time <= entry.validUntil)
    }

    /// One search with a fixed radius among a rare text query's candidate slots, nearest bound first.
    private func among(_ candidates: [Int32], _ query: NearbyQuery, radius: Double, keep: Int, category: Int32)
        -> [NearbyMatch]
    {
        let center = EarthPoint(query.center)
        return BestMatches<NearbyMatch>.among(
            candidates, keep: keep, radius: radius, after: query.after,
            bound: { slot in
                guard admits(state.bounds[Int(slot)], query, category: category),
                    let prepared = state.slots[Int(slot)]
                else { return nil }
                return prepared.lowerBound(from: center)
            },
            id: { state.slots[Int($0)]?.flyer.id ?? "" },
            measure: { slot in
                guard let prepared = state.slots[Int(slot)] else { return nil }
                let (distance, point) = prepared.distance(from: query.center)
                return (distance, NearbyMatch(flyer: prepared.flyer, distance: distance, nearest: point))
            }
        ).map(\.match)
    }

    /// The category's code: `noCategory` for no filter, nil for a category no flyer has.
    private func categoryCode(_ category: String?) -> Int32? {
        guard let category else { return Self.noCategory }
        return state.categoryCodes[category.lowercased()]
    }

    /// One search with a fixed radius: the grid offers candidates nearest bound first; each is
    /// measured exactly until no remaining bound can beat the last kept match.
    private func pass(_ query: NearbyQuery, radius: Double, keep: Int, category: Int32, text: TextFilter?)
        -> [NearbyMatch]
    {
        let center = EarthPoint(query.center)
        let box = Geodesic.wgs84.boundingBox(center: query.center, radius: radius)
        let bounds = state.bounds
        var seenAreas = Set<Int32>()
        var best = BestMatches<NearbyMatch>(keep: keep, radius: radius, after: query.after)
        state.grid.nearestFirst(from: center, in: box, cutoff: radius) { slot in
            let entry = bounds[Int(slot)]
            if !admits(entry, query, category: category) { return best.cutoff }
            if entry.isArea && !seenAreas.insert(slot).inserted { return best.cutoff }
            if let text, !state.words.admits(slot, text) { return best.cutoff }
            guard let prepared = state.slots[Int(slot)] else { return best.cutoff }
            let (distance, point) = prepared.distance(from: query.center)
            best.offer(
                distance, id: { prepared.flyer.id },
                match: { NearbyMatch(flyer: prepared.flyer, distance: distance, nearest: point) })
            return best.cutoff
        }
        return best.items.map(\.match)
    }

    /// The area query's page: every flyer within its reach passing its filters is tested exactly.
    package func area(_ query: AreaQuery) -> NearbyMatches {
        lock.reading {
            guard let category = categoryCode(query.category) else { return NearbyMatches(matches: [], hasMore: false) }
            var words: TextFilter?
            if let text = query.text {
                guard let filter = state.words.filter(text, candidateLimit: 0) else {
                    return NearbyMatches(matches: [], hasMore: false)
                }
                words = filter
            }
            let time = query.at.timeIntervalSince1970
            var seenAreas = Set<Int32>()
            var found: [NearbyMatch] = []
            state.grid.nearestFirst(from: query.anchorPoint, in: query.searchBox, cutoff: query.reach) { slot in
                let entry = state.bounds[Int(slot)]
                if category != Self.noCategory && entry.category != category { return query.reach }
                if !query.includeInactive && (time < entry.validFrom || time > entry.validUntil) { return query.reach }
                if let words, !state.words.admits(slot, words) { return query.reach }
                if entry.isArea && !seenAreas.insert(slot).inserted { return query.reach }
                guard let prepared = state.slots[Int(slot)], let distance = query.match(prepared.shape) else {
                    return query.reach
                }
                if let after = query.after, !after.precedes(distance, prepared.flyer.id) { return query.reach }
                found.append(
                    NearbyMatch(flyer: prepared.flyer, distance: distance, nearest: prepared.target(from: nil)))
                return query.reach
            }
            return query.page(found)
        }
    }

    /// Flyers sorted by title then id (for a user without a location).
    package func byTitle(
        limit: Int, category: String?, at instant: Date, includeInactive: Bool,
        after: TitlePosition?, text: TextQuery? = nil
    ) -> (flyers: [Flyer], hasMore: Bool) {
        lock.reading {
            guard let category = categoryCode(category) else { return ([], false) }
            var words: TextFilter?
            if let text {
                guard let filter = state.words.filter(text, candidateLimit: 0) else { return ([], false) }
                words = filter
            }
            var best = TitleOrder<Flyer>(keep: max(1, limit) + 1)
            let time = instant.timeIntervalSince1970
            for (index, entry) in state.bounds.enumerated() {
                guard let prepared = state.slots[index] else { continue }
                if category != Self.noCategory && entry.category != category { continue }
                if !includeInactive && (time < entry.validFrom || time > entry.validUntil) { continue }
                if let words, !state.words.admits(Int32(index), words) { continue }
                let flyer = prepared.flyer
                if let after, !after.precedes(flyer.title, flyer.id) { continue }
                best.offer(flyer.title, flyer.id, flyer)
            }
            return (best.items.prefix(max(1, limit)).map(\.element), best.items.count > max(1, limit))
        }
    }

    /// Every flyer sorted by id, a page at a time.
    package func list(limit: Int, after: String?) -> (flyers: [Flyer], hasMore: Bool) {
        lock.reading {
            var ids = state.slotByID.keys.filter { id in after.map { id > $0 } ?? true }
            ids.sort()
            let page = ids.prefix(max(1, limit)).compactMap {
                state.slotByID[$0].flatMap { state.slots[Int($0)]?.flyer }
            }
            return (page, ids.count > max(1, limit))
        }
    }

    // MARK: Writing

    private static func insert(_ prepared: PreparedFlyer, words: [String], into state: inout State) {
        let flyer = prepared.flyer
        remove(id: flyer.id, from: &state)
        var categoryCode = uncategorised
        if let category = flyer.category?.lowercased() {
            if let code = state.categoryCodes[category] {
                categoryCode = code
            } else {
                categoryCode = Int32(state.categoryCodes.count)
                state.categoryCodes[category] = categoryCode
            }
        }
        let bounds = Bounds(
            anchor: prepared.anchor, reach: prepared.reach,
            validFrom: flyer.validFrom?.timeIntervalSince1970 ?? -.infinity,
            validUntil: flyer.validUntil?.timeIntervalSince1970 ?? .infinity,
            category: categoryCode, isArea: prepared.isArea)
        let slot: Int32
        if let free = state.freeSlots.popLast() {
            slot = free
            state.slots[Int(slot)] = prepared
            state.bounds[Int(slot)] = bounds
        } else {
            slot = Int32(state.slots.count)
            state.slots.append(prepared)
            state.bounds.append(bounds)
        }
        state.slotByID[flyer.id] = slot
        state.words.set(slot: slot, words: words)
        switch prepared.shape {
        case .point(let point):
            state.grid.insert(point: point, anchor: prepared.anchor, slot: slot)
            state.largestPointRadius = max(state.largestPointRadius, flyer.radiusM)
        case .area(let area):
            state.grid.insert(area: area.boxes, anchor: prepared.anchor, reach: prepared.reach, slot: slot)
        }
    }

    @discardableResult
    private static func remove(id: String, from state: inout State) -> Bool {
        guard let slot = state.slotByID.removeValue(forKey: id), let prepared = state.slots[Int(slot)] else {
            return false
        }
        switch prepared.shape {
        case .point(let point): state.grid.remove(point: point, slot: slot)
        case .area(let area): state.grid.remove(area: area.boxes, slot: slot)
        }
        state.slots[Int(slot)] = nil
        state.words.remove(slot: slot)
        state.freeSlots.append(slot)
        return true
    }
}
