/// The result of decoding one sentence body.
public enum ParsedSentence: Sendable, Equatable {
    case sentence(Talker, NMEASentence)
    /// A well-formed sentence of a talker or type Meridian does not decode.
    case unknownType
    /// A field could not be read.
    case invalid(FieldError)
}

/// Decodes sentence bodies (the text between `$` and `*`).
public enum SentenceParser {
    /// Decodes `body`, e.g. the bytes of `GPGGA,123519,4807.038,N,…`.
    public static func parse(_ body: UnsafeBufferPointer<UInt8>) -> ParsedSentence {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Fields.maximumCount + 1) { storage in
            guard let fields = Fields(body, storage: storage) else { return .invalid(FieldError(index: Fields.maximumCount)) }
            do throws(FieldError) {
                return try parse(fields)
            } catch {
                return .invalid(error)
            }
        }
    }

    /// Decodes a body given as text (tests, tools).
    public static func parse(_ body: String) -> ParsedSentence {
        var body = body
        return body.withUTF8 { parse($0) }
    }

    private static func parse(_ f: Fields) throws(FieldError) -> ParsedSentence {
        let address = f.range(0)
        guard address.count >= 5 else { return .unknownType }
        let b = f.bytes
        let first = b[address.lowerBound], second = b[address.lowerBound + 1]
        if first == UInt8(ascii: "P") {
            if f.equals(0, "PGRME") { return .sentence(.proprietary, .pgrme(try pgrme(f))) }
            guard second == UInt8(ascii: "Q") else { return .unknownType }
        }
        guard address.count == 5, let talker = talker(first, second) else { return .unknownType }
        let t0 = b[address.lowerBound + 2], t1 = b[address.lowerBound + 3], t2 = b[address.lowerBound + 4]
        let type = UInt32(t0) << 16 | UInt32(t1) << 8 | UInt32(t2)
        let sentence: NMEASentence
        switch type {
        case code("GGA"): sentence = .gga(try gga(f))
        case code("RMC"): sentence = .rmc(try rmc(f))
        case code("GSA"): sentence = .gsa(try gsa(f))
        case code("GSV"): sentence = .gsv(try gsv(f))
        case code("VTG"): sentence = .vtg(try vtg(f))
        case code("GLL"): sentence = .gll(try gll(f))
        case code("GST"): sentence = .gst(try gst(f))
        case code("ZDA"): sentence = .zda(try zda(f))
        case code("GNS"): sentence = .gns(try gns(f))
        case code("TXT"): sentence = .txt
        default: return .unknownType
        }
        return .sentence(talker, sentence)
    }

    private static func code(_ text: StaticString) -> UInt32 {
        let p = text.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }

    private static func talker(_ first: UInt8, _ second: UInt8) -> Talker? {
        switch (first, second) {
        case (0x47, 0x50): return .gp // GP
        case (0x47, 0x4E): return .gn // GN
        case (0x47, 0x4C): return .gl // GL
        case (0x47, 0x41): return .ga // GA
        case (0x47, 0x42): return .gb // GB
        case (0x42, 0x44): return .bd // BD
        case (0x47, 0x51): return .gq // GQ
        case (0x51, 0x5A): return .qz // QZ
        case (0x47, 0x49): return .gi // GI
        case (0x50, 0x51): return .pq // PQ
        default: return nil
        }
    }

    private static func latitude(_ f: Fields, _ i: Int) throws(FieldError) -> Double? {
        try f.angle(i, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), limit: 90)
    }

    private static func longitude(_ f: Fields, _ i: Int) throws(FieldError) -> Double? {
        try f.angle(i, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), limit: 180)
    }

    private static func nonNegative(_ f: Fields, _ i: Int) throws(FieldError) -> Double? {
        guard let value = try f.double(i) else { return nil }
        guard value >= 0 else { throw FieldError(index: i) }
        return value
    }

    private static func course(_ f: Fields, _ i: Int) throws(FieldError) -> Double? {
        guard let value = try f.double(i) else { return nil }
        guard value >= 0, value <= 360 else { throw FieldError(index: i) }
        return value == 360 ? 0 : value
    }

    private static func gga(_ f: Fields) throws(FieldError) -> GGA {
        GGA(timeOfDay: try f.timeOfDay(1), latitude: try latitude(f, 2), longitude: try longitude(f, 4),
            quality: try f.int(6), satellitesUsed: try f.int(7), hdop: try nonNegative(f, 8),
            altitude: try f.double(9), geoidSeparation: try f.double(11))
    }

    private static func rmc(_ f: Fields) throws(FieldError) -> RMC {
        RMC(timeOfDay: try f.timeOfDay(1), status: f.character(2), latitude: try latitude(f, 3),
            longitude: try longitude(f, 5), speedKnots: try nonNegative(f, 7), course: try course(f, 8),
            date: try f.date(9), modeIndicator: f.character(12), navigationalStatus: f.character(13))
    }

    private static func gsa(_ f: Fields) throws(FieldError) -> GSA {
        var used = 0
        for i in 3...14 where !f.isEmpty(i) { used += 1 }
        return GSA(fixType: try f.int(2), satellitesUsed: used, pdop: try nonNegative(f, 15),
                   hdop: try nonNegative(f, 16), vdop: try nonNegative(f, 17), systemID: try f.int(18))
    }

    private static func gsv(_ f: Fields) throws(FieldError) -> GSV {
        let satelliteFields = f.count - 4
        let inSentence = max(0, min(4, satelliteFields / 4))
        let signalID = satelliteFields % 4 == 1 ? try f.int(f.count - 1) : nil
        return GSV(messageCount: try f.int(1), messageNumber: try f.int(2), satellitesInView: try f.int(3),
                   satellitesInSentence: inSentence, signalID: signalID)
    }

    private static func vtg(_ f: Fields) throws(FieldError) -> VTG {
        VTG(course: try course(f, 1), speedKnots: try nonNegative(f, 5), speedKmh: try nonNegative(f, 7),
            modeIndicator: f.character(9))
    }

    private static func gll(_ f: Fields) throws(FieldError) -> GLL {
        GLL(latitude: try latitude(f, 1), longitude: try longitude(f, 3), timeOfDay: try f.timeOfDay(5),
            status: f.character(6), modeIndicator: f.character(7))
    }

    private static func gst(_ f: Fields) throws(FieldError) -> GST {
        GST(timeOfDay: try f.timeOfDay(1), rms: try nonNegative(f, 2), latitudeError: try nonNegative(f, 6),
            longitudeError: try nonNegative(f, 7), altitudeError: try nonNegative(f, 8))
    }

    private static func zda(_ f: Fields) throws(FieldError) -> ZDA {
        var date: Int?
        if let day = try f.int(2), let month = try f.int(3), let year = try f.int(4) {
            guard CivilDate.isValid(year: year, month: month, day: day) else { throw FieldError(index: 2) }
            date = CivilDate.days(year: year, month: month, day: day)
        }
        return ZDA(timeOfDay: try f.timeOfDay(1), date: date)
    }

    private static func gns(_ f: Fields) throws(FieldError) -> GNS {
        let modes = f.range(6)
        var valid = false
        var best: UInt8?
        for i in modes {
            let mode = f.bytes[i]
            if mode != UInt8(ascii: "N") {
                valid = true
                if best == nil { best = mode }
            }
        }
        return GNS(timeOfDay: try f.timeOfDay(1), latitude: try latitude(f, 2), longitude: try longitude(f, 4),
                   valid: valid, modeIndicator: best, satellitesUsed: try f.int(7), hdop: try nonNegative(f, 8),
                   altitude: try f.double(9), geoidSeparation: try f.double(10))
    }

    private static func pgrme(_ f: Fields) throws(FieldError) -> PGRME {
        PGRME(horizontalError: try nonNegative(f, 1), verticalError: try nonNegative(f, 3),
              sphericalError: try nonNegative(f, 5))
    }
}
