import Foundation
import MeridianCore

/// Builds a `PackedFlyerIndex` from flyers given one at a time (in any order), keeping only their
/// search data and packed text, so that a million flyers can be read from the database without holding them.
struct PackedIndexBuilder {
    private let layout: GridLayout
    private var slots: [PackedSlot] = []
    /// The slots' exact anchors, for the cells' and parts' boxes.
    private var anchors: [EarthPoint] = []
    private var ids = PackedStrings()
    private var texts = PackedStrings()
    private var validities: [PackedValidity] = []
    /// Per slot: its cell and part (points), or -1 (areas).
    private var keys: [Int64] = []
    private var parts: [Int32] = []
    private var categories = PackedStrings()
    private var categoryCodes: [String: Int32] = [:]
    private var areaGeometries: [FlyerGeometry] = []
    private var areaShapes: [AreaShape] = []

    init(cellSize: Double) {
        layout = GridLayout(cellSize: cellSize)
    }

    /// Adds `flyer` (an area without any vertex, which validation rejects earlier, is left out).
    mutating func add(_ flyer: Flyer) {
        var category = PackedSlot.uncategorised
        if let name = flyer.category?.lowercased() {
            if let code = categoryCodes[name] {
                category = code
            } else {
                category = Int32(categories.count)
                categoryCodes[name] = category
                categories.append(name)
            }
        }
        var validity = PackedSlot.alwaysValid
        if flyer.validFrom != nil || flyer.validUntil != nil {
            validity = Int32(validities.count)
            validities.append(
                PackedValidity(
                    from: flyer.validFrom?.timeIntervalSince1970 ?? -.infinity,
                    until: flyer.validUntil?.timeIntervalSince1970 ?? .infinity))
        }
        var slot = PackedSlot(
            latitude: 0, longitude: 0, radius: flyer.radiusM, category: category, area: -1, validity: validity)
        let anchor: EarthPoint
        switch flyer.geometry {
        case .point(let point):
            anchor = EarthPoint(point)
            slot.latitude = point.latitude
            slot.longitude = point.longitude
            keys.append(Int64(layout.key(of: point)))
            parts.append(layout.part(of: point))
        case .polygon, .multiPolygon:
            guard let shape = AreaShape(flyer.geometry.polygons) else { return }
            anchor = shape.anchor
            slot.latitude = shape.representative.latitude
            slot.longitude = shape.representative.longitude
            slot.area = Int32(areaShapes.count)
            areaShapes.append(shape)
            areaGeometries.append(flyer.geometry)
            keys.append(-1)
            parts.append(0)
        }
        slots.append(slot)
        anchors.append(anchor)
        ids.append(flyer.id)
        texts.append(
            bytes: PackedFlyerTexts.encode(
                .init(
                    title: flyer.title, description: flyer.description, address: flyer.address,
                    category: flyer.category, url: flyer.url)))
    }

    /// The index: points ordered by cell and part, then the areas. Each array gathered so far is let go once
    /// its ordered copy is made, so that building holds little more than the index itself.
    consuming func build() -> PackedFlyerIndex {
        let order = slots.indices.sorted { a, b in
            let keyA = keys[a] < 0 ? Int64.max : keys[a], keyB = keys[b] < 0 ? Int64.max : keys[b]
            return keyA != keyB ? keyA < keyB : (parts[a] != parts[b] ? parts[a] < parts[b] : a < b)
        }
        let ordered = order.map { slots[$0] }
        slots = []
        let orderedAnchors = order.map { anchors[$0] }
        anchors = []
        var orderedIDs = PackedStrings(), orderedTexts = PackedStrings()
        for index in order { orderedIDs.append(ids[index]) }
        ids = PackedStrings()
        // Texts compressed with symbols learnt from about 2,000 of them, evenly spread (256 KiB at most).
        let spacing = max(1, order.count / 2_048)
        var sample: [[UInt8]] = []
        var sampled = 0
        for position in stride(from: 0, to: order.count, by: spacing) where sampled < 1 << 18 {
            sample.append(texts.withBytes(order[position]) { [UInt8]($0) })
            sampled += sample[sample.count - 1].count
        }
        let symbols = SymbolTable.trained(on: sample)
        var encoded: [UInt8] = []
        for index in order {
            encoded.removeAll(keepingCapacity: true)
            texts.withBytes(index) { symbols.encode($0, into: &encoded) }
            orderedTexts.append(bytes: encoded)
        }
        texts = PackedStrings()
        let byID = ordered.indices.sorted { orderedIDs.precedes($0, $1) }.map(Int32.init)

        // Cells: every cell holding a point or touched by an area, with its point range.
        var areaCells: [Int64: [Int32]] = [:]
        var largeAreas: [Int32] = []
        for (slot, entry) in ordered.enumerated() where entry.area >= 0 {
            let boxes = areaShapes[Int(entry.area)].boxes
            if layout.cellCount(boxes) > GridLayout.maximumCellsPerArea {
                largeAreas.append(Int32(slot))
            } else {
                layout.forEachCell(of: boxes) { areaCells[Int64($0), default: []].append(Int32(slot)) }
            }
        }
        let orderedKeys = order.map { keys[$0] }
        let orderedParts = order.map { parts[$0] }
        keys = []
        parts = []
        let pointCount = orderedKeys.partitioningIndex { $0 < 0 }
        let cellKeys = Array(Set(orderedKeys[..<pointCount]).union(areaCells.keys)).sorted()
        let side = GridLayout.partsPerSide * GridLayout.partsPerSide
        var cellPointStart: [Int32] = [0], cellBoxes: [PackedBox] = [], cellFirstPart: [Int32] = []
        var partStart: [Int32] = [], partBoxes: [PackedBox] = []
        var cellAreaStart: [Int32] = [0], cellAreas: [Int32] = []
        var next = 0
        for key in cellKeys {
            let start = next
            while next < pointCount && orderedKeys[next] == key { next += 1 }
            var box = SpaceBox()
            for slot in start..<next { box.include(orderedAnchors[slot]) }
            for slot in areaCells[key] ?? [] {
                let entry = ordered[Int(slot)]
                box.include(
                    orderedAnchors[Int(slot)], margin: areaShapes[Int(entry.area)].reach + GridLayout.roundingSlack)
                cellAreas.append(slot)
            }
            if next - start > GridLayout.maximumPointsPerCell {
                cellFirstPart.append(Int32(partStart.count))
                var slot = start
                for part in 0..<Int32(side) {
                    partStart.append(Int32(slot))
                    var partBox = SpaceBox()
                    while slot < next && orderedParts[slot] == part {
                        partBox.include(orderedAnchors[slot])
                        slot += 1
                    }
                    partBoxes.append(PackedBox(partBox))
                }
            } else {
                cellFirstPart.append(-1)
            }
            cellBoxes.append(PackedBox(box))
            cellPointStart.append(Int32(next))
            cellAreaStart.append(Int32(cellAreas.count))
        }
        return PackedFlyerIndex(
            cellSize: layout.cellSize,
            .init(
                slots: ordered, anchors: orderedAnchors.map(PackedAnchor.init), ids: orderedIDs, texts: orderedTexts,
                textSymbols: symbols, validities: validities,
                byID: byID,
                categories: categories, cellKeys: cellKeys, cellPointStart: cellPointStart,
                cellBoxes: cellBoxes, cellFirstPart: cellFirstPart, partStart: partStart, partBoxes: partBoxes,
                cellAreaStart: cellAreaStart, cellAreas: cellAreas, largeAreas: largeAreas,
                areaGeometries: areaGeometries, areaShapes: areaShapes))
    }
}
