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
        let prepared = flyers.compactMap(PreparedFlyer.init)
        lock.writing {
            for flyer in prepared { Self.insert(flyer, into: &state) }
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
            let filter = FlyerFilter(category: query.category, at: query.at, includeInactive: query.includeInactive)
            guard let category = categoryCode(filter.category) else {
                return NearbyMatches(matches: [], hasMore: false)
            }
            let page = BestMatches<NearbyMatch>.page(query) { radius, keep in
                pass(query, radius: radius, keep: keep, category: category)
            }
            return NearbyMatches(matches: page.matches, hasMore: page.hasMore)
        }
    }

    /// The category's code: `noCategory` for no filter, nil for a category no flyer has.
    private func categoryCode(_ category: String?) -> Int32? {
        guard let category else { return Self.noCategory }
        return state.categoryCodes[category.lowercased()]
    }

    /// One search with a fixed radius: the grid offers candidates nearest bound first; each is
    /// measured exactly until no remaining bound can beat the last kept match.
    private func pass(_ query: NearbyQuery, radius: Double, keep: Int, category: Int32) -> [NearbyMatch] {
        let center = EarthPoint(query.center)
        let box = Geodesic.wgs84.boundingBox(center: query.center, radius: radius)
        let bounds = state.bounds
        let time = query.at.timeIntervalSince1970
        let checkTime = !query.includeInactive
        var seenAreas = Set<Int32>()
        var best = BestMatches<NearbyMatch>(keep: keep, radius: radius, after: query.after)
        state.grid.nearestFirst(from: center, in: box, cutoff: radius) { slot in
            let entry = bounds[Int(slot)]
            if category != Self.noCategory && entry.category != category { return best.cutoff }
            if checkTime && (time < entry.validFrom || time > entry.validUntil) { return best.cutoff }
            if entry.isArea && !seenAreas.insert(slot).inserted { return best.cutoff }
            guard let prepared = state.slots[Int(slot)] else { return best.cutoff }
            let (distance, point) = prepared.distance(from: query.center)
            best.offer(
                distance, id: { prepared.flyer.id },
                match: { NearbyMatch(flyer: prepared.flyer, distance: distance, nearest: point) })
            return best.cutoff
        }
        return best.items.map(\.match)
    }

    /// Flyers sorted by title then id (for a user without a location).
    package func byTitle(
        limit: Int, category: String?, at instant: Date, includeInactive: Bool,
        after: TitlePosition?
    ) -> (flyers: [Flyer], hasMore: Bool) {
        lock.reading {
            guard let category = categoryCode(category) else { return ([], false) }
            let keep = max(1, limit) + 1
            let time = instant.timeIntervalSince1970
            var best: [Flyer] = []
            for (index, entry) in state.bounds.enumerated() {
                guard let prepared = state.slots[index] else { continue }
                if category != Self.noCategory && entry.category != category { continue }
                if !includeInactive && (time < entry.validFrom || time > entry.validUntil) { continue }
                let flyer = prepared.flyer
                if let after, !after.precedes(flyer.title, flyer.id) { continue }
                if best.count == keep, let last = best.last,
                    !TitlePosition(title: flyer.title, id: flyer.id).precedes(last.title, last.id)
                {
                    continue
                }
                let position = best.partitioningIndex {
                    !TitlePosition(title: $0.title, id: $0.id).precedes(flyer.title, flyer.id)
                }
                best.insert(flyer, at: position)
                if best.count > keep { best.removeLast() }
            }
            return (Array(best.prefix(max(1, limit))), best.count > max(1, limit))
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

    private static func insert(_ prepared: PreparedFlyer, into state: inout State) {
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
        state.freeSlots.append(slot)
        return true
    }
}

extension Array {
    /// The first index whose element satisfies `belongsInSecondPartition` (elements must be partitioned).
    func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsInSecondPartition(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
