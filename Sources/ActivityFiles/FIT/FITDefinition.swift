/// The global FIT messages Meridian reads (numbers from the FIT profile).
enum FITMessage: UInt16 {
    case fileID = 0
    case sport = 12
    case session = 18
    case lap = 19
    case record = 20
    case event = 21
    case activity = 34
}

/// The fields Meridian reads, across the messages it reads (FIT profile field numbers in
/// `init(message:number:)`); every other field is skipped by its size.
enum FITField: UInt8 {
    case timestamp
    // record
    case latitude, longitude, altitude, enhancedAltitude, heartRate, cadence, fractionalCadence
    case distance, speed, enhancedSpeed, power, compressedSpeedDistance, temperature, gpsAccuracy
    // session and lap
    case startTime, sport, subSport, elapsedTime, timerTime, totalDistance, averageHeartRate, maxHeartRate
    case averageCadence, averageFractionalCadence, averagePower, ascent, descent, lapTrigger
    // event
    case event, eventType
    // file_id
    case manufacturer, product, productName
    // activity
    case localTimestamp

    init?(message: FITMessage?, number: UInt8) {
        if number == 253 {
            self = .timestamp
            return
        }
        let field: FITField?
        switch message {
        case .record:
            switch number {
            case 0: field = .latitude
            case 1: field = .longitude
            case 2: field = .altitude
            case 3: field = .heartRate
            case 4: field = .cadence
            case 5: field = .distance
            case 6: field = .speed
            case 7: field = .power
            case 8: field = .compressedSpeedDistance
            case 13: field = .temperature
            case 31: field = .gpsAccuracy
            case 53: field = .fractionalCadence
            case 73: field = .enhancedSpeed
            case 78: field = .enhancedAltitude
            default: field = nil
            }
        case .session:
            switch number {
            case 2: field = .startTime
            case 5: field = .sport
            case 6: field = .subSport
            case 7: field = .elapsedTime
            case 8: field = .timerTime
            case 9: field = .totalDistance
            case 16: field = .averageHeartRate
            case 17: field = .maxHeartRate
            case 18: field = .averageCadence
            case 20: field = .averagePower
            case 22: field = .ascent
            case 23: field = .descent
            case 92: field = .averageFractionalCadence
            default: field = nil
            }
        case .lap:
            switch number {
            case 2: field = .startTime
            case 7: field = .elapsedTime
            case 8: field = .timerTime
            case 9: field = .totalDistance
            case 15: field = .averageHeartRate
            case 16: field = .maxHeartRate
            case 24: field = .lapTrigger
            default: field = nil
            }
        case .event:
            switch number {
            case 0: field = .event
            case 1: field = .eventType
            default: field = nil
            }
        case .fileID:
            switch number {
            case 1: field = .manufacturer
            case 2: field = .product
            case 8: field = .productName
            default: field = nil
            }
        case .activity:
            field = number == 5 ? .localTimestamp : nil
        case .sport:
            field = number == 0 ? .sport : number == 1 ? .subSport : nil
        case nil:
            field = nil
        }
        guard let field else { return nil }
        self = field
    }

    /// Profile scale and offset: value = raw / scale - offset.
    var scaleAndOffset: (scale: Double, offset: Double) {
        switch self {
        case .altitude, .enhancedAltitude: return (5, 500)
        case .distance, .totalDistance: return (100, 0)
        case .speed, .enhancedSpeed, .elapsedTime, .timerTime: return (1000, 0)
        case .fractionalCadence, .averageFractionalCadence: return (128, 0)
        default: return (1, 0)
        }
    }
}

/// How the bytes of one element of a FIT base type are read, and which value means "invalid".
enum FITValueKind {
    /// Invalid when every bit is set (enum, uint8/16/32/64).
    case unsigned
    /// Two's complement; invalid at the largest positive value (sint8/16/32/64).
    case signed
    /// Invalid at zero (uint8z/16z/32z/64z).
    case unsignedZ
    /// IEEE 754; invalid when every bit is set (float32/64).
    case float
    /// Bytes or text, not a number (byte, string, unknown base types).
    case bytes

    /// Kind and element size of a base type byte (its low five bits are the type number).
    static func of(baseType: UInt8) -> (kind: FITValueKind, size: Int) {
        switch baseType & 0x1F {
        case 0, 2: return (.unsigned, 1)
        case 1: return (.signed, 1)
        case 3: return (.signed, 2)
        case 4: return (.unsigned, 2)
        case 5: return (.signed, 4)
        case 6: return (.unsigned, 4)
        case 8: return (.float, 4)
        case 9: return (.float, 8)
        case 10: return (.unsignedZ, 1)
        case 11: return (.unsignedZ, 2)
        case 12: return (.unsignedZ, 4)
        case 14: return (.signed, 8)
        case 15: return (.unsigned, 8)
        case 16: return (.unsignedZ, 8)
        default: return (.bytes, 1)  // 7 string, 13 byte, and numbers the protocol does not define
        }
    }
}

/// One field of a definition that Meridian reads.
struct FITFieldPlan {
    var field: FITField
    /// The profile's scale and offset for the field: value = raw / scale − valueOffset.
    var scale: Double
    var valueOffset: Double
    /// Offset of the field in the data message's content (after the record header).
    var offset: Int
    /// Size of the whole field (an array holds several elements; the first is read).
    var size: Int
    var elementSize: Int
    var kind: FITValueKind
}

/// A definition message, reduced to what decoding its data messages needs.
struct FITDefinition {
    var message: FITMessage?
    var bigEndian: Bool
    /// Bytes of every data message of this definition, developer fields included.
    var size: Int
    var fields: [FITFieldPlan]

    /// The first element of `plan`'s field in the data message starting at `start`, scaled;
    /// `nil` when it holds the base type's invalid value, is not a finite number, or its
    /// size is not a whole number of elements.
    @inline(__always)
    func number(_ plan: FITFieldPlan, in bytes: UnsafeRawBufferPointer, at start: Int) -> Double? {
        guard let raw = rawNumber(plan, in: bytes, at: start) else { return nil }
        return plan.scale == 1 && plan.valueOffset == 0 ? raw : raw / plan.scale - plan.valueOffset
    }

    /// Like ``number(_:in:at:)`` but unscaled.
    @inline(__always)
    func rawNumber(_ plan: FITFieldPlan, in bytes: UnsafeRawBufferPointer, at start: Int) -> Double? {
        guard plan.size >= plan.elementSize, plan.size % plan.elementSize == 0 else { return nil }
        let position = start + plan.offset
        let bits: UInt64
        switch plan.elementSize {
        case 1: bits = UInt64(bytes[position])
        case 2:
            let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self)
            bits = UInt64(bigEndian ? UInt16(bigEndian: value) : UInt16(littleEndian: value))
        case 4:
            let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)
            bits = UInt64(bigEndian ? UInt32(bigEndian: value) : UInt32(littleEndian: value))
        default:
            let value = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            bits = bigEndian ? UInt64(bigEndian: value) : UInt64(littleEndian: value)
        }
        let width = UInt64(plan.elementSize * 8)
        let allOnes: UInt64 = width == 64 ? .max : (1 << width) - 1
        switch plan.kind {
        case .unsigned:
            return bits == allOnes ? nil : Double(bits)
        case .unsignedZ:
            return bits == 0 ? nil : Double(bits)
        case .signed:
            guard bits != allOnes >> 1 else { return nil }
            let shift = 64 - width
            return Double(Int64(bitPattern: bits << shift) >> shift)
        case .float:
            guard bits != allOnes else { return nil }
            let value =
                plan.elementSize == 4
                ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
            return value.isFinite ? value : nil
        case .bytes:
            return nil
        }
    }

    /// The field's bytes.
    func bytes(_ plan: FITFieldPlan, in bytes: UnsafeRawBufferPointer, at start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[(start + plan.offset)..<(start + plan.offset + plan.size)])
    }
}
