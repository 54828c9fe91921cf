import Foundation
import MeridianCore
import Synchronization

/// An immutable search index over every flyer in flat arrays: points sorted by grid cell (and by
/// part within crowded cells), so a cell is a range of slots and nothing but areas needs a pointer.
/// It is stored in the database as it is in memory (`PersistedFlyerIndex`) and read back in bulk
/// at start. It keeps what search needs (positions, validity, radius, category, id) in fixed-size
/// slots and each flyer's display text packed (`PackedFlyerTexts`), so results need no database reads.
///
/// The search is the mutable `FlyerIndex`'s: cells, then parts, then flyers nearest bound first,
/// measured exactly until no remaining bound can beat the page, so both give the same answers.
final class PackedFlyerIndex: Sendable {
    let layout: GridLayout
    let slots: [PackedSlot]
    /// Per slot, the point itself or the area's anchor, for the bounds that order the search.
    let anchors: [PackedAnchor]
    let ids: PackedStrings
    /// Per slot, its display text (`PackedFlyerTexts`) compressed with `textSymbols`.
    let texts: PackedStrings
    let textSymbols: SymbolTable
    /// The validity of the slots that have one (`PackedSlot.validity`).
    let validities: [PackedValidity]
    /// Slots in id byte order, for finding a flyer by id.
    let byID: [Int32]
    let categories: PackedStrings
    /// Cell numbers (`GridLayout`) in increasing order, and per cell: its first point slot (one more
    /// entry at the end), its box, and its first part (-1 when it is not split).
    let cellKeys: [Int64]
    let cellPointStart: [Int32]
    let cellBoxes: [PackedBox]
    let cellFirstPart: [Int32]
    /// Per part of a split cell (`partsPerSide`² each, in order): its first point slot and its box.
    let partStart: [Int32]
    let partBoxes: [PackedBox]
    /// Per row of `partsPerSide` parts (part `i` is in row `i / partsPerSide`), the box of its parts: a search opens
    /// a cell's rows and only the rows it reaches open their parts (it most often needs three of a cell's 256 parts).
    /// Made from `partBoxes` when the index is read; not stored.
    let partRowBoxes: [SpaceBox]
    /// Per cell, the area slots touching it (`cellAreaStart` has one more entry at the end).
    let cellAreaStart: [Int32]
    let cellAreas: [Int32]
    /// Areas touching too many cells, checked on every query.
    let largeAreas: [Int32]
    /// Per area (`PackedSlot.area`): its geometry and its prepared shape.
    let areaGeometries: [FlyerGeometry]
    let areaShapes: [AreaShape]
    let largestPointRadius: Double
    private let categoryCodes: [String: Int32]
    /// The words of every slot, made at the first text search (`words()`).
    private let wordIndex = Mutex<WordIndex?>(nil)
    /// `wordIndex` is made: a text search here waits for nothing.
    private let wordsMade = Atomic(false)
    /// `makeWordsAside()` has started making `wordIndex`.
    private let wordsStarted = Atomic(false)

    private static let flyerEntry: Int32 = -1
    private static let cellEntry: Int32 = -2
    /// A heap entry's `part` for row `row` of parts: below `cellEntry`.
    private static func partRowEntry(_ row: Int) -> Int32 { cellEntry - 1 - Int32(row) }
    /// The row of parts a `partRowEntry` stands for.
    private static func partRow(_ entry: Int32) -> Int { Int(cellEntry - 1 - entry) }

    struct Arrays {
        var slots: [PackedSlot]
        var anchors: [PackedAnchor]
        var ids: PackedStrings
        var texts: PackedStrings
        var textSymbols: SymbolTable
        var validities: [PackedValidity]
        var byID: [Int32]
        var categories: PackedStrings
        var cellKeys: [Int64]
        var cellPointStart: [Int32]
        var cellBoxes: [PackedBox]
        var cellFirstPart: [Int32]
        var partStart: [Int32]
        var partBoxes: [PackedBox]
        var cellAreaStart: [Int32]
        var cellAreas: [Int32]
        var largeAreas: [Int32]
        var areaGeometries: [FlyerGeometry]
        var areaShapes: [AreaShape]
    }

    /// Arrays read back from storage, checked: throws when they do not describe a well-formed index
    /// (a slot, cell, part or area out of range, an area that is not one).
    static func checked(cellSize: Double, _ stored: Arrays) throws(PackedIndexError) -> PackedFlyerIndex {
        let arrays = stored
        let layout = GridLayout(cellSize: cellSize)
        let count = arrays.slots.count
        let cells = arrays.cellKeys.count
        let parts = arrays.partStart.count
        let areaCount = arrays.areaGeometries.count
        let side = GridLayout.partsPerSide * GridLayout.partsPerSide
        func check(_ condition: Bool, _ what: String) throws(PackedIndexError) {
            if !condition { throw .malformed(what) }
        }
        try check(arrays.ids.count == count && arrays.byID.count == count, "ids")
        try check(
            arrays.anchors.count == count
                && arrays.anchors.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite },
            "anchors")
        // Each text record is decoded when an answer needs it (a malformed one reads as an empty title, never past
        // its bytes); the comparison with the flyer table that follows every read-back in the background decodes them
        // all and builds the index again on any difference, so they are not decoded here before the first answer.
        try check(arrays.texts.count == count, "texts")
        try check(arrays.byID.allSatisfy { $0 >= 0 && Int($0) < count }, "id order")
        try check(
            arrays.cellPointStart.count == cells + 1 && arrays.cellBoxes.count == cells
                && arrays.cellFirstPart.count == cells
                && arrays.cellAreaStart.count == cells + 1 && arrays.partBoxes.count == parts && parts % side == 0,
            "cells")
        try check(
            arrays.cellPointStart.first == 0
                && zip(arrays.cellPointStart, arrays.cellPointStart.dropFirst()).allSatisfy { $0 <= $1 }
                && Int(arrays.cellPointStart.last ?? 0) <= count, "cell points")
        try check(
            zip(arrays.cellKeys, arrays.cellKeys.dropFirst()).allSatisfy { $0 < $1 }
                && arrays.cellKeys.allSatisfy { $0 >= 0 && $0 < Int64(layout.rows * layout.columns) }, "cell numbers")
        for cell in 0..<cells where arrays.cellFirstPart[cell] != -1 {
            let first = Int(arrays.cellFirstPart[cell])
            try check(first >= 0 && first % side == 0 && first + side <= parts, "parts")
            var previous = arrays.cellPointStart[cell]
            for part in first..<(first + side) {
                try check(
                    arrays.partStart[part] >= previous && arrays.partStart[part] <= arrays.cellPointStart[cell + 1],
                    "part points")
                previous = arrays.partStart[part]
            }
        }
        try check(
            arrays.cellAreaStart.first == 0
                && zip(arrays.cellAreaStart, arrays.cellAreaStart.dropFirst()).allSatisfy { $0 <= $1 }
                && Int(arrays.cellAreaStart.last ?? 0) == arrays.cellAreas.count, "cell areas")
        let isArea = { (slot: Int32) in slot >= 0 && Int(slot) < count && arrays.slots[Int(slot)].area >= 0 }
        try check(arrays.cellAreas.allSatisfy(isArea) && arrays.largeAreas.allSatisfy(isArea), "areas")
        let categoryCount = Int32(arrays.categories.count)
        try check(
            arrays.slots.allSatisfy { slot in
                slot.area < Int32(areaCount) && slot.category < categoryCount
                    && slot.category >= PackedSlot.uncategorised
                    && slot.validity >= PackedSlot.alwaysValid && Int(slot.validity) < arrays.validities.count
                    && (-90.0...90.0).contains(slot.latitude) && (-180.0...180.0).contains(slot.longitude)
            }, "slots")
        try check(arrays.areaShapes.count == areaCount, "area shapes")
        return PackedFlyerIndex(cellSize: cellSize, arrays)
    }

    /// An index over `arrays` as the builder made them.
    init(cellSize: Double, _ arrays: Arrays) {
        layout = GridLayout(cellSize: cellSize)
        slots = arrays.slots
        anchors = arrays.anchors
        ids = arrays.ids
        texts = arrays.texts
        textSymbols = arrays.textSymbols
        validities = arrays.validities
        byID = arrays.byID
        categories = arrays.categories
        cellKeys = arrays.cellKeys
        cellPointStart = arrays.cellPointStart
        cellBoxes = arrays.cellBoxes
        cellFirstPart = arrays.cellFirstPart
        partStart = arrays.partStart
        partBoxes = arrays.partBoxes
        let rowLength = GridLayout.partsPerSide
        partRowBoxes = (0..<(arrays.partBoxes.count / rowLength)).map { row in
            var box = SpaceBox()
            for part in (row * rowLength)..<((row + 1) * rowLength) { box.include(arrays.partBoxes[part].box) }
            return box
        }
        cellAreaStart = arrays.cellAreaStart
        cellAreas = arrays.cellAreas
        largeAreas = arrays.largeAreas
        areaGeometries = arrays.areaGeometries
        areaShapes = arrays.areaShapes
        largestPointRadius = slots.reduce(0) { $1.area < 0 ? max($0, $1.radius) : $0 }
        var codes: [String: Int32] = [:]
        for code in 0..<categories.count { codes[categories[code]] = Int32(code) }
        categoryCodes = codes
    }

    var count: Int { slots.count }

    // MARK: Reading

    /// The slot of flyer `id`.
    func slot(id: String) -> Int32? {
        let key = Array(id.utf8)
        var low = 0, high = byID.count
        while low < high {
            let middle = (low + high) / 2
            let order = ids.compare(Int(byID[middle]), key)
            if order == 0 { return byID[middle] }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The display text of `slot` (nil for a record that does not decode, which only a stored index can hold).
    func fields(_ slot: Int) -> PackedFlyerTexts.Fields? {
        texts.withBytes(slot) { encoded in textSymbols.decode(encoded) { $0.flatMap(PackedFlyerTexts.decode) } }
    }

    /// The flyer in `slot`, as it was stored.
    func flyer(_ slot: Int32) -> Flyer {
        flyer(slot, id: ids[Int(slot)])
    }

    /// The flyer in `slot` with its id already read (a search's match holds it).
    private func flyer(_ slot: Int32, id: String) -> Flyer {
        let entry = slots[Int(slot)]
        let validity = entry.validity == PackedSlot.alwaysValid ? nil : validities[Int(entry.validity)]
        // Only a stored index can hold a record that does not decode; the comparison after its read-back replaces it.
        let fields = fields(Int(slot)) ?? PackedFlyerTexts.Fields(title: "")
        return Flyer(
            id: id, title: fields.title, description: fields.description, address: fields.address,
            category: fields.category, url: fields.url, radiusM: entry.radius,
            validFrom: validity.flatMap { $0.from.isFinite ? Date(timeIntervalSince1970: $0.from) : nil },
            validUntil: validity.flatMap { $0.until.isFinite ? Date(timeIntervalSince1970: $0.until) : nil },
            geometry: entry.area >= 0 ? areaGeometries[Int(entry.area)] : .point(entry.coordinate))
    }

    /// A lower bound of the distance from `center` to the flyer in `slot`: the chord to its anchor, less its area's
    /// reach for an area.
    private func bound(_ slot: Int32, from center: EarthPoint) -> Double {
        let area = slots[Int(slot)].area
        return max(0, anchors[Int(slot)].chordBound(from: center) - (area >= 0 ? areaShapes[Int(area)].reach : 0))
    }

    /// The exact distance from `center` to the flyer in `slot`, and its nearest point.
    func distance(_ slot: Int32, from center: Coordinate) -> (distance: Double, point: Coordinate) {
        let hit = measure(slot, from: center, withBearing: false)
        return (hit.distance, hit.nearest)
    }

    /// A search's measure of `slot` from `center`: the exact distance, the nearest point and, for a point flyer
    /// when `withBearing`, the initial bearing to it, which the same geodesic gives (an answer would otherwise solve
    /// it again; without it the geodesic skips the bearing's arctangent).
    private func measure(_ slot: Int32, from center: Coordinate, withBearing: Bool = true) -> (
        distance: Double, nearest: Coordinate, bearing: Double?
    ) {
        let entry = slots[Int(slot)]
        if entry.area >= 0 {
            let (distance, point) = areaShapes[Int(entry.area)].distance(to: center)
            return (distance, point, nil)
        }
        let point = entry.coordinate
        guard withBearing else { return (Geodesic.wgs84.distance(center, point), point, nil) }
        let inverse = Geodesic.wgs84.distanceAndBearing(from: center, to: point)
        return (inverse.distance, point, inverse.initialBearing)
    }

    // MARK: Search

    /// One hit: the slot, its (distance, id), the flyer's point nearest to the centre and, when the search
    /// measured it, the initial bearing to that point.
    struct Match: Sendable {
        var slot: Int32
        var position: DistancePosition
        var nearest: Coordinate
        var bearing: Double? = nil
    }

    /// What a search keeps of a measured slot until its page is made.
    private typealias Hit = (slot: Int32, nearest: Coordinate, bearing: Double?)

    /// `matches` with their flyers, as searches answer them; their texts are fetched together first.
    func nearbyMatches(_ matches: [Match]) -> [NearbyMatch] {
        texts.prefetch(matches.lazy.map { Int($0.slot) })
        return matches.map(nearbyMatch)
    }

    /// `match` with its flyer, as searches answer it.
    private func nearbyMatch(_ match: Match) -> NearbyMatch {
        NearbyMatch(
            flyer: flyer(match.slot, id: match.position.id), distance: match.position.distance, nearest: match.nearest,
            bearing: match.bearing)
    }

    /// The query's page of live slots (those not in `dead`), by exact distance, then id.
    func nearby(_ query: NearbyQuery, excluding dead: SlotSet) -> (matches: [Match], hasMore: Bool) {
        guard let category = categoryCode(query.category) else { return ([], false) }
        var text: (words: WordIndex, filter: TextFilter)?
        if let wanted = query.text {
            let words = words()
            let limit = WordIndex.candidateLimit(keep: max(1, query.limit) + 1, count: count)
            guard let filter = words.filter(wanted, candidateLimit: limit) else { return ([], false) }
            text = (words, filter)
        }
        return BestMatches<Match>.page(query) { radius, keep in
            if let candidates = text?.filter.candidates {
                return among(candidates, query, radius: radius, keep: keep, category: category, dead: dead)
            }
            return pass(query, radius: radius, keep: keep, category: category, dead: dead, text: text)
        }
    }

    /// The words of every slot (`WordIndex`), made from the slots' text at the first call.
    func words() -> WordIndex {
        wordIndex.withLock { built in
            if let built { return built }
            var index = WordIndex()
            var folder = SearchWords()
            for slot in 0..<count {
                guard let fields = fields(slot) else { continue }
                index.set(
                    slot: Int32(slot),
                    words: folder.words(ofFields: [fields.title, fields.description, fields.address, fields.category]))
            }
            index.finish()
            built = index
            wordsMade.store(true, ordering: .releasing)
            return index
        }
    }

    /// True once the word index is made, so that a text search here does not wait for it.
    var hasWords: Bool { wordsMade.load(ordering: .acquiring) }

    /// Makes the word index on a thread of its own (once), so that no search waits for it; seconds and a few
    /// hundred bytes per flyer at 1,000,000 flyers.
    func makeWordsAside() {
        guard !wordsStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Thread { _ = self.words() }.start()
    }

    /// The code of category `name` (any category when nil, below `uncategorised`); nil when no flyer has it.
    private func categoryCode(_ name: String?) -> Int32? {
        guard let name else { return PackedSlot.uncategorised - 1 }
        return categoryCodes[name.lowercased()]
    }

    /// True when `slot` is live and passes the query's category (`category` below `uncategorised`: any) and validity.
    private func admits(_ slot: Int32, _ query: NearbyQuery, category: Int32, dead: SlotSet) -> Bool {
        admits(slot, at: query.at, includeInactive: query.includeInactive, category: category, dead: dead)
    }

    /// True when `slot` is live, of `category` (below `uncategorised`: any) and valid at `instant` (or inactive ones
    /// are included).
    private func admits(_ slot: Int32, at instant: Date, includeInactive: Bool, category: Int32, dead: SlotSet) -> Bool
    {
        let entry = slots[Int(slot)]
        if category >= PackedSlot.uncategorised && entry.category != category { return false }
        if !includeInactive && entry.validity != PackedSlot.alwaysValid {
            let validity = validities[Int(entry.validity)]
            let time = instant.timeIntervalSince1970
            if time < validity.from || time > validity.until { return false }
        }
        return !dead.contains(slot)
    }

    /// Up to `keep` live flyers in title-then-id order after `after`, by one pass over every slot: a listing without
    /// a location, answered here only while the database is away.
    func byTitle(
        keep: Int, category name: String?, at instant: Date, includeInactive: Bool, after: TitlePosition?,
        text query: TextQuery?, excluding dead: SlotSet
    ) -> [Flyer] {
        guard let category = categoryCode(name) else { return [] }
        var text: (words: WordIndex, filter: TextFilter)?
        if let wanted = query {
            let words = words()
            guard let filter = words.filter(wanted, candidateLimit: 0) else { return [] }
            text = (words, filter)
        }
        var best = TitleOrder<Int32>(keep: keep)
        for slot in 0..<Int32(count) {
            guard admits(slot, at: instant, includeInactive: includeInactive, category: category, dead: dead),
                text.map({ $0.words.admits(slot, $0.filter) }) ?? true,
                let title = fields(Int(slot))?.title
            else { continue }
            let id = ids[Int(slot)]
            if let after, !after.precedes(title, id) { continue }
            best.offer(title, id, slot)
        }
        return best.items.map { flyer($0.element) }
    }

    /// One search with a fixed radius among a rare text query's candidate slots, nearest bound first.
    private func among(
        _ candidates: [Int32], _ query: NearbyQuery, radius: Double, keep: Int, category: Int32, dead: SlotSet
    ) -> [Match] {
        let center = EarthPoint(query.center)
        return BestMatches<Hit>.among(
            candidates, keep: keep, radius: radius, after: query.after,
            bound: { slot in
                guard admits(slot, query, category: category, dead: dead) else { return nil }
                return bound(slot, from: center)
            },
            id: { ids[Int($0)] },
            measure: { slot in
                let hit = measure(slot, from: query.center)
                return (hit.distance, (slot, hit.nearest, hit.bearing))
            }
        ).map(Self.match)
    }

    /// Every live slot within `radius` of `center`.
    func within(_ radius: Double, of center: Coordinate, at instant: Date, excluding dead: SlotSet) -> [Match] {
        BestMatches<Match>.all(within: radius, of: center, at: instant, position: \.position) {
            nearby($0, excluding: dead)
        }
    }

    private func pass(
        _ query: NearbyQuery, radius: Double, keep: Int, category: Int32, dead: SlotSet,
        text: (words: WordIndex, filter: TextFilter)?
    ) -> [Match] {
        let center = EarthPoint(query.center)
        let box = Geodesic.wgs84.boundingBox(center: query.center, radius: radius)
        var seenAreas = Set<Int32>()
        var best = BestMatches<Hit>(keep: keep, radius: radius, after: query.after)
        // Made once: binding the optional text inside the visit would copy it for every slot visited.
        let admitsText: ((Int32) -> Bool)? = text.map { text in { text.words.admits($0, text.filter) } }
        nearestFirst(from: center, in: box, cutoff: radius) { slot in
            if !admits(slot, query, category: category, dead: dead) { return best.cutoff }
            if slots[Int(slot)].area >= 0 && !seenAreas.insert(slot).inserted { return best.cutoff }
            if let admitsText, !admitsText(slot) { return best.cutoff }
            let hit = measure(slot, from: query.center)
            best.offer(hit.distance, id: { ids[Int(slot)] }, match: { (slot, hit.nearest, hit.bearing) })
            return best.cutoff
        }
        return best.items.map(Self.match)
    }

    /// A kept hit as a page's match.
    private static func match(_ item: (position: DistancePosition, match: Hit)) -> Match {
        Match(slot: item.match.slot, position: item.position, nearest: item.match.nearest, bearing: item.match.bearing)
    }

    /// The area query's page of live slots (those not in `dead`): every slot within its reach passing its
    /// filters is tested exactly (`AreaQuery.match`); sorted by its distance, then id.
    func area(_ query: AreaQuery, excluding dead: SlotSet) -> (matches: [Match], hasMore: Bool) {
        guard let category = categoryCode(query.category) else { return ([], false) }
        let filterCategory = category >= PackedSlot.uncategorised
        var text: (words: WordIndex, filter: TextFilter)?
        if let wanted = query.text {
            let words = words()
            guard let filter = words.filter(wanted, candidateLimit: 0) else { return ([], false) }
            text = (words, filter)
        }
        let time = query.at.timeIntervalSince1970
        let after = query.after.map { (distance: $0.distance, id: Array($0.id.utf8)) }
        var seenAreas = Set<Int32>()
        var found: [(slot: Int32, distance: Double)] = []
        nearestFirst(from: query.anchorPoint, in: query.searchBox, cutoff: query.reach) { slot in
            let entry = slots[Int(slot)]
            if filterCategory && entry.category != category { return query.reach }
            if !query.includeInactive && entry.validity != PackedSlot.alwaysValid {
                let validity = validities[Int(entry.validity)]
                if time < validity.from || time > validity.until { return query.reach }
            }
            if let text, !text.words.admits(slot, text.filter) { return query.reach }
            if dead.contains(slot) || (entry.area >= 0 && !seenAreas.insert(slot).inserted) { return query.reach }
            let shape: PreparedFlyer.Shape =
                entry.area >= 0 ? .area(areaShapes[Int(entry.area)]) : .point(entry.coordinate)
            guard let distance = query.match(shape) else { return query.reach }
            if let after,
                distance < after.distance || (distance == after.distance && ids.compare(Int(slot), after.id) <= 0)
            {
                return query.reach
            }
            found.append((slot, distance))
            return query.reach
        }
        let limit = max(1, query.limit)
        found.sort {
            $0.distance < $1.distance || ($0.distance == $1.distance && ids.precedes(Int($0.slot), Int($1.slot)))
        }
        let page = found.prefix(limit).map { hit in
            let entry = slots[Int(hit.slot)]
            return Match(
                slot: hit.slot, position: DistancePosition(distance: hit.distance, id: ids[Int(hit.slot)]),
                nearest: entry.area >= 0 ? areaShapes[Int(entry.area)].representative : entry.coordinate)
        }
        return (page, found.count > limit)
    }

    /// Offers the slots that may meet `box` to `visit` in increasing order of a lower bound of their
    /// distance from `center` (areas may come more than once); `visit` returns the new cutoff.
    private func nearestFirst(
        from center: EarthPoint, in box: BoundingBox, cutoff initialCutoff: Double, _ visit: (Int32) -> Double
    ) {
        var cutoff = initialCutoff
        var heap = MinHeap()
        func push(_ key: Double, _ reference: Int32, _ part: Int32) {
            if key <= cutoff { heap.push(MinHeap.Entry(key: key, reference: reference, part: part)) }
        }
        func pushArea(_ slot: Int32) { push(bound(slot, from: center), slot, Self.flyerEntry) }
        func pushPoints(_ range: Range<Int>) {
            // Each point bounded here may be visited (its slot read, its id compared): fetched now, their cache
            // misses overlap instead of stalling the visits one by one.
            for slot in range {
                slots.prefetch(slot)
                ids.prefetchOffset(slot)
            }
            for slot in range { push(anchors[slot].chordBound(from: center), Int32(slot), Self.flyerEntry) }
        }
        let (rows, spans) = layout.spans(of: box)
        for row in rows {
            for (west, east) in spans {
                let low = Int64(row * layout.columns + west), high = Int64(row * layout.columns + east)
                var cell = cellKeys.partitioningIndex { $0 >= low }
                while cell < cellKeys.count && cellKeys[cell] <= high {
                    push(cellBoxes[cell].distance(from: center), Int32(cell), Self.cellEntry)
                    cell += 1
                }
            }
        }
        for slot in largeAreas
        where areaShapes[Int(slots[Int(slot)].area)].boxes.contains(where: { GridLayout.meets($0, box) }) {
            pushArea(slot)
        }
        let side = Int32(GridLayout.partsPerSide * GridLayout.partsPerSide)
        while let entry = heap.popMin(), entry.key <= cutoff {
            let cell = Int(entry.reference)
            switch entry.part {
            case Self.flyerEntry:
                cutoff = visit(entry.reference)
            case Self.cellEntry:
                for index in Int(cellAreaStart[cell])..<Int(cellAreaStart[cell + 1]) { pushArea(cellAreas[index]) }
                let first = cellFirstPart[cell]
                if first < 0 {
                    pushPoints(Int(cellPointStart[cell])..<Int(cellPointStart[cell + 1]))
                } else {
                    let rowLength = Int32(GridLayout.partsPerSide)
                    for row in Int(first / rowLength)..<Int((first + side) / rowLength) {
                        push(partRowBoxes[row].distance(from: center), entry.reference, Self.partRowEntry(row))
                    }
                }
            case ..<Self.cellEntry:
                let rowLength = Int32(GridLayout.partsPerSide)
                let firstPart = Int32(Self.partRow(entry.part)) * rowLength
                for part in firstPart..<(firstPart + rowLength) where partRange(part, cell: cell).count > 0 {
                    push(partBoxes[Int(part)].distance(from: center), entry.reference, part)
                }
            default:
                pushPoints(partRange(entry.part, cell: cell))
            }
        }
    }

    /// The point slots of `part` of `cell`.
    private func partRange(_ part: Int32, cell: Int) -> Range<Int> {
        let side = Int32(GridLayout.partsPerSide * GridLayout.partsPerSide)
        let end = (part - cellFirstPart[cell]) == side - 1 ? cellPointStart[cell + 1] : partStart[Int(part) + 1]
        return Int(partStart[Int(part)])..<Int(end)
    }
}

/// Why stored index arrays were not used.
enum PackedIndexError: Error, Equatable, CustomStringConvertible {
    case malformed(String)

    var description: String {
        switch self {
        case .malformed(let what): return "the stored search index is malformed (\(what))"
        }
    }
}
