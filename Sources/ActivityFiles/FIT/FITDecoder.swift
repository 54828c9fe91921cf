import Foundation
import MeridianCore

/// Decodes the structure of FIT files: header, definition and data messages, compressed
/// timestamps, CRCs, and chains of FIT files back to back. Keeps the messages Meridian reads
/// (``FITMessage``); everything else is skipped by its size.
///
/// Any damage (bad header, CRC mismatch, truncation, a data message of an undefined local
/// type) throws an ``ActivityFileError`` naming the byte offset; nothing else can go wrong.
/// With `salvage`, damage ends the chain instead: what was read up to the last complete
/// message is kept, and the damage is noted in ``FITContents/damage``.
struct FITDecoder {
    let file: String
    var salvage = false

    /// Whether `bytes` start like a FIT file: header size 12 or 14 and ".FIT" at bytes 8–11.
    static func looksLikeFIT(_ bytes: some Collection<UInt8>) -> Bool {
        let prefix = Array(bytes.prefix(12))
        return prefix.count == 12 && (prefix[0] == 12 || prefix[0] == 14) && Array(prefix[8..<12]) == Array(".FIT".utf8)
    }

    /// Every FIT file in `bytes`, in order.
    func decode(_ bytes: UnsafeRawBufferPointer) throws(ActivityFileError) -> [FITContents] {
        var files: [FITContents] = []
        var position = 0
        repeat {
            let samplesBefore = files.reduce(0) { $0 + $1.samples.count }
            var decoder = FileDecoder(
                bytes: bytes, start: position, file: file,
                sampleLimit: ActivityFileReader.maximumSamples - samplesBefore,
                salvage: salvage)
            let contents = try decoder.decode()
            if let damage = contents.damage {
                // A damaged link that holds nothing (garbage after a complete file) only marks where reading ended.
                if contents.isEmpty, !files.isEmpty {
                    files[files.count - 1].damage = damage
                } else {
                    files.append(contents)
                }
                break
            }
            files.append(contents)
            position = decoder.end
        } while position < bytes.count
        return files
    }
}

/// Decodes one FIT file of a chain.
private struct FileDecoder {
    let bytes: UnsafeRawBufferPointer
    let start: Int
    let file: String
    /// The most samples this file of the chain may add (``ActivityFileReader/maximumSamples`` for the chain).
    let sampleLimit: Int
    /// Keep what was read before damage (``FITContents/damage``) instead of throwing.
    let salvage: Bool
    /// Where this file (its CRC included) ends.
    private(set) var end = 0
    /// Where the header says the records end, and where they can be read up to.
    private var dataEnd = 0
    private var limit = 0

    private var definitions = [FITDefinition?](repeating: nil, count: 16)
    private var lastTimestamp: FITTime?
    /// Rolling 12-bit distance of `compressed_speed_distance`, and the total it adds up to.
    private var compressedDistance: (last: Int, total: Double)?
    private var contents: FITContents

    init(bytes: UnsafeRawBufferPointer, start: Int, file: String, sampleLimit: Int, salvage: Bool) {
        self.bytes = bytes
        self.start = start
        self.file = file
        self.sampleLimit = sampleLimit
        self.salvage = salvage
        contents = FITContents(startOffset: start)
    }

    private func error(_ offset: Int, _ message: String) -> ActivityFileError {
        ActivityFileError(file: file, byteOffset: offset, message: message)
    }

    mutating func decode() throws(ActivityFileError) -> FITContents {
        do {
            try decodeRecords()
        } catch {
            // Too many samples is not damage: it is refused even when salvaging.
            guard salvage, error.message != ActivityFileReader.tooManySamples else { throw error }
            contents.damage = error
        }
        return contents
    }

    private mutating func decodeRecords() throws(ActivityFileError) {
        let dataStart: Int
        (dataStart, dataEnd) = try header()
        end = dataEnd + 2
        var crcMismatch: ActivityFileError?
        if end <= bytes.count {
            let stored = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
            let computed = FITCRC.compute(bytes, start..<dataEnd)
            if stored != computed {
                crcMismatch = error(
                    dataEnd,
                    "file CRC mismatch (computed \(hex(computed)), stored \(hex(stored))); the file is damaged, export it again"
                )
                // Salvaging reads the records first: damage inside them comes first.
                if let crcMismatch, !salvage { throw crcMismatch }
            }
        }
        var position = dataStart
        limit = min(dataEnd, bytes.count)
        while position < limit {
            position = try record(at: position)
        }
        if dataEnd > bytes.count {
            throw error(
                bytes.count,
                "unexpected end of file: the header declares \(dataEnd - dataStart) bytes of data but the file ends after \(bytes.count - dataStart); the file is cut short, copy or export it again"
            )
        }
        if end > bytes.count {
            throw error(
                dataEnd,
                "unexpected end of file: the 2-byte file CRC is missing; the file is cut short, copy or export it again"
            )
        }
        if let crcMismatch { throw crcMismatch }
    }

    /// Checks the file header; returns where the records start and end.
    private func header() throws(ActivityFileError) -> (Int, Int) {
        let available = bytes.count - start
        guard available >= 12 else {
            throw error(
                start,
                "bad FIT header: only \(available) bytes where a 12- or 14-byte header should start; the file is damaged or not a FIT file"
            )
        }
        let size = Int(bytes[start])
        guard size == 12 || size == 14 else {
            throw error(
                start, "bad FIT header: header size \(size) (expected 12 or 14); the file is damaged or not a FIT file")
        }
        guard bytes[start + 8] == 0x2E, bytes[start + 9] == 0x46, bytes[start + 10] == 0x49, bytes[start + 11] == 0x54
        else {
            let found = (8..<12).map { String(UnicodeScalar(bytes[start + $0])) }.joined()
            throw error(
                start + 8,
                "bad FIT header: the signature is '\(printable(found))', not '.FIT'; the file is damaged or not a FIT file"
            )
        }
        let protocolMajor = bytes[start + 1] >> 4
        guard protocolMajor <= 2 else {
            throw error(
                start + 1,
                "FIT protocol version \(protocolMajor).\(bytes[start + 1] & 0x0F) is newer than this reader understands (up to 2.x)"
            )
        }
        if size == 14 {
            guard available >= 14 else {
                throw error(start, "bad FIT header: the file ends inside its 14-byte header; the file is cut short")
            }
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            let computed = FITCRC.compute(bytes, start..<(start + 12))
            guard stored == 0 || stored == computed else {
                throw error(
                    start + 12,
                    "header CRC mismatch (computed \(hex(computed)), stored \(hex(stored))); the file is damaged, export it again"
                )
            }
        }
        let dataSize = Int(bytes.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self).littleEndian)
        return (start + size, start + size + dataSize)
    }

    /// Throws unless `count` bytes from `offset` are there, for the record at `position`.
    private func need(_ count: Int, from offset: Int, record position: Int, localType: Int) throws(ActivityFileError) {
        guard offset + count > limit else { return }
        if limit == bytes.count && limit < dataEnd {
            throw error(
                position,
                "unexpected end of file at byte \(bytes.count) while reading a record of local type \(localType); the file is cut short, copy or export it again"
            )
        }
        throw error(
            position,
            "a record of local type \(localType) runs past the end of the data the header declares (byte \(dataEnd)); the file is damaged, export it again"
        )
    }

    /// Decodes the record at `position`; returns where the next one starts.
    private mutating func record(at position: Int) throws(ActivityFileError) -> Int {
        let header = bytes[position]
        let localType = Int(header & 0x80 != 0 ? (header >> 5) & 0x03 : header & 0x0F)
        if header & 0xC0 == 0x40 {
            return try definition(at: position, localType: localType, hasDeveloperFields: header & 0x20 != 0)
        }
        guard let definition = definitions[localType] else {
            throw error(
                position,
                "data message of local type \(localType), which no definition message introduced; the file is damaged, export it again"
            )
        }
        try need(1 + definition.size, from: position, record: position, localType: localType)
        var time: FITTime?
        if header & 0x80 != 0 {
            // Compressed timestamp: five bits of seconds past the last full timestamp, rolling over at 32.
            if let last = lastTimestamp {
                let offset = FITTime(header & 0x1F)
                var value = (last & ~0x1F) &+ offset
                if offset < last & 0x1F { value = value &+ 0x20 }
                time = value
                lastTimestamp = value
            }
        }
        data(definition, at: position + 1, compressedTime: time)
        guard contents.samples.count <= sampleLimit else { throw error(position, ActivityFileReader.tooManySamples) }
        return position + 1 + definition.size
    }

    private mutating func definition(at position: Int, localType: Int, hasDeveloperFields: Bool)
        throws(ActivityFileError) -> Int
    {
        func need(_ count: Int, _ offset: Int) throws(ActivityFileError) {
            try self.need(count, from: offset, record: position, localType: localType)
        }
        try need(6, position)
        let architecture = bytes[position + 2]
        guard architecture <= 1 else {
            throw error(
                position + 2,
                "definition of local type \(localType) has architecture byte \(architecture) (expected 0 little-endian or 1 big-endian); the file is damaged, export it again"
            )
        }
        let bigEndian = architecture == 1
        let rawGlobal = bytes.loadUnaligned(fromByteOffset: position + 3, as: UInt16.self)
        let message = FITMessage(rawValue: bigEndian ? UInt16(bigEndian: rawGlobal) : UInt16(littleEndian: rawGlobal))
        let fieldCount = Int(bytes[position + 5])
        var cursor = position + 6
        try need(fieldCount * 3, cursor)
        var size = 0
        var fields: [FITFieldPlan] = []
        for _ in 0..<fieldCount {
            let number = bytes[cursor]
            let fieldSize = Int(bytes[cursor + 1])
            let (kind, elementSize) = FITValueKind.of(baseType: bytes[cursor + 2])
            if let field = FITField(message: message, number: number) {
                let (scale, offset) = field.scaleAndOffset
                fields.append(
                    FITFieldPlan(
                        field: field, scale: scale, valueOffset: offset, offset: size, size: fieldSize,
                        elementSize: elementSize, kind: kind))
            }
            size += fieldSize
            cursor += 3
        }
        if hasDeveloperFields {
            try need(1, cursor)
            let developerCount = Int(bytes[cursor])
            cursor += 1
            try need(developerCount * 3, cursor)
            for index in 0..<developerCount { size += Int(bytes[cursor + index * 3 + 1]) }
            cursor += developerCount * 3
        }
        definitions[localType] = FITDefinition(message: message, bigEndian: bigEndian, size: size, fields: fields)
        return cursor
    }

    /// Keeps what Meridian reads from the data message whose content starts at `start`.
    private mutating func data(_ definition: FITDefinition, at start: Int, compressedTime: FITTime?) {
        var time = compressedTime
        for plan in definition.fields where plan.field == .timestamp {
            if let value = definition.rawNumber(plan, in: bytes, at: start) {
                time = FITTime(exactly: value)
                lastTimestamp = time
            }
        }
        switch definition.message {
        case .record: record(definition, at: start, time: time)
        case .session, .lap: summary(definition, at: start, time: time)
        case .event: event(definition, at: start, time: time)
        case .fileID: fileID(definition, at: start)
        case .activity:
            contents.activityTimestamp = time
            for plan in definition.fields where plan.field == .localTimestamp {
                contents.activityLocalTimestamp = definition.rawNumber(plan, in: bytes, at: start).flatMap {
                    FITTime(exactly: $0)
                }
            }
        case .sport:
            for plan in definition.fields {
                let value = definition.rawNumber(plan, in: bytes, at: start).flatMap { Int(exactly: $0) }
                if plan.field == .sport { contents.sport = value }
                if plan.field == .subSport { contents.subSport = value }
            }
        case nil:
            break
        }
    }

    private mutating func record(_ definition: FITDefinition, at start: Int, time: FITTime?) {
        var sample = RecordedSample(time: Date(timeIntervalSince1970: 0))
        var latitude: Double?, longitude: Double?
        var altitude: Double?, enhancedAltitude: Double?, speed: Double?, enhancedSpeed: Double?
        var cadence: Double?, fractionalCadence: Double?
        var compressed: (speed: Double, distance12: Int)?
        for plan in definition.fields {
            switch plan.field {
            case .latitude: latitude = definition.rawNumber(plan, in: bytes, at: start)
            case .longitude: longitude = definition.rawNumber(plan, in: bytes, at: start)
            case .altitude: altitude = definition.number(plan, in: bytes, at: start)
            case .enhancedAltitude: enhancedAltitude = definition.number(plan, in: bytes, at: start)
            case .heartRate: sample.heartRate = definition.number(plan, in: bytes, at: start)
            case .cadence: cadence = definition.number(plan, in: bytes, at: start)
            case .fractionalCadence: fractionalCadence = definition.number(plan, in: bytes, at: start)
            case .distance: sample.distance = definition.number(plan, in: bytes, at: start)
            case .speed: speed = definition.number(plan, in: bytes, at: start)
            case .enhancedSpeed: enhancedSpeed = definition.number(plan, in: bytes, at: start)
            case .power: sample.power = definition.number(plan, in: bytes, at: start)
            case .temperature: sample.temperature = definition.number(plan, in: bytes, at: start)
            case .gpsAccuracy: sample.horizontalAccuracy = definition.number(plan, in: bytes, at: start)
            case .compressedSpeedDistance:
                // 12 bits of speed (1/100 m/s) then 12 bits of distance (1/16 m, rolling over at 256 m).
                let field = definition.bytes(plan, in: bytes, at: start)
                if field.count >= 3, !(field[0] == 0xFF && field[1] == 0xFF && field[2] == 0xFF) {
                    compressed = (
                        Double(Int(field[0]) | Int(field[1] & 0x0F) << 8) / 100,
                        Int(field[1] >> 4) | Int(field[2]) << 4
                    )
                }
            default: break
            }
        }
        guard let time else {
            contents.skipped["records_without_time", default: 0] += 1
            return
        }
        sample.time = time.date()
        if latitude != nil || longitude != nil {
            // Semicircles: 2^31 of them make 180°.
            let degrees = 180.0 / 2_147_483_648.0
            if let latitude, let longitude,
                let position = try? Coordinate(latitude: latitude * degrees, longitude: longitude * degrees)
            {
                sample.coordinate = position
            } else {
                contents.skipped["invalid_positions", default: 0] += 1
            }
        }
        sample.altitude = enhancedAltitude ?? altitude
        sample.speed = enhancedSpeed ?? speed
        if let cadence { sample.cadence = cadence + (fractionalCadence ?? 0) }
        if let compressed {
            let total: Double
            if let previous = compressedDistance {
                total = previous.total + Double((compressed.distance12 - previous.last) & 0xFFF) / 16
            } else {
                total = Double(compressed.distance12) / 16
            }
            compressedDistance = (compressed.distance12, total)
            if sample.speed == nil { sample.speed = compressed.speed }
            if sample.distance == nil { sample.distance = total }
        }
        if contents.sampleTimes.isEmpty {
            // At most this many records fit in the rest of the data: reserving saves the copies of
            // growing (capacity that is never written costs no memory). The samples grow in chunks.
            contents.sampleTimes.reserveCapacity(min(1 << 20, (limit - start) / (definition.size + 1) + 1))
        }
        contents.samples.append(sample)
        contents.sampleTimes.append(time)
    }

    private mutating func summary(_ definition: FITDefinition, at start: Int, time: FITTime?) {
        var summary = FITSummary(timestamp: time)
        var cadence: Double?, fractionalCadence: Double?
        for plan in definition.fields {
            let value = definition.number(plan, in: bytes, at: start)
            switch plan.field {
            case .startTime: summary.startTime = value.flatMap { FITTime(exactly: $0) }
            case .sport: summary.sport = value.flatMap { Int(exactly: $0) }
            case .subSport: summary.subSport = value.flatMap { Int(exactly: $0) }
            case .lapTrigger: summary.lapTrigger = value.flatMap { Int(exactly: $0) }
            case .elapsedTime: summary.elapsedTime = value
            case .timerTime: summary.timerTime = value
            case .totalDistance: summary.distance = value
            case .averageHeartRate: summary.averageHeartRate = value
            case .maxHeartRate: summary.maxHeartRate = value
            case .averageCadence: cadence = value
            case .averageFractionalCadence: fractionalCadence = value
            case .averagePower: summary.averagePower = value
            case .ascent: summary.ascent = value
            case .descent: summary.descent = value
            default: break
            }
        }
        if let cadence { summary.averageCadence = cadence + (fractionalCadence ?? 0) }
        if definition.message == .session { contents.sessions.append(summary) } else { contents.laps.append(summary) }
    }

    private mutating func event(_ definition: FITDefinition, at start: Int, time: FITTime?) {
        var event: Double?, type: Double?
        for plan in definition.fields {
            switch plan.field {
            case .event: event = definition.rawNumber(plan, in: bytes, at: start)
            case .eventType: type = definition.rawNumber(plan, in: bytes, at: start)
            default: break
            }
        }
        // Event 0 is the timer; type 0 start, 1 stop, 4 stop_all, 8 stop_disable, 9 stop_disable_all.
        guard event == 0, let time, let type else { return }
        switch type {
        case 0: contents.timerEvents.append(FITTimerEvent(time: time, running: true))
        case 1, 4, 8, 9: contents.timerEvents.append(FITTimerEvent(time: time, running: false))
        default: break
        }
    }

    private mutating func fileID(_ definition: FITDefinition, at start: Int) {
        guard contents.manufacturer == nil, contents.product == nil, contents.productName == nil else { return }
        for plan in definition.fields {
            switch plan.field {
            case .manufacturer:
                contents.manufacturer = definition.rawNumber(plan, in: bytes, at: start).flatMap { Int(exactly: $0) }
            case .product:
                contents.product = definition.rawNumber(plan, in: bytes, at: start).flatMap { Int(exactly: $0) }
            case .productName:
                let text = definition.bytes(plan, in: bytes, at: start).prefix { $0 != 0 }
                let name = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                contents.productName = name.isEmpty ? nil : name
            default: break
            }
        }
    }
}

private func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
}

private func printable(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
}
