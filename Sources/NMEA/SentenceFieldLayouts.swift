/// The field layout of each decoded sentence type.
extension Fields {
    /// Latitude with its N/S field after it.
    func latitude(_ i: Int) throws(FieldError) -> Double? {
        try angle(i, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), limit: 90)
    }

    /// Longitude with its E/W field after it.
    func longitude(_ i: Int) throws(FieldError) -> Double? {
        try angle(i, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), limit: 180)
    }

    /// A decimal that must not be negative (speeds, errors, DOPs).
    func nonNegative(_ i: Int) throws(FieldError) -> Double? {
        guard let value = try double(i) else { return nil }
        guard value >= 0 else { throw FieldError(index: i) }
        return value
    }

    /// A course in degrees, 0 to 360 (360 is read as 0).
    func course(_ i: Int) throws(FieldError) -> Double? {
        guard let value = try double(i) else { return nil }
        guard value >= 0, value <= 360 else { throw FieldError(index: i) }
        return value == 360 ? 0 : value
    }
}

extension GGA {
    init(fields f: Fields) throws(FieldError) {
        self.init(
            timeOfDay: try f.timeOfDay(1), latitude: try f.latitude(2),
            longitude: try f.longitude(4), quality: try f.int(6), satellitesUsed: try f.int(7),
            hdop: try f.nonNegative(8), altitude: try f.double(9), geoidSeparation: try f.double(11))
    }
}

extension RMC {
    init(fields f: Fields) throws(FieldError) {
        self.init(
            timeOfDay: try f.timeOfDay(1), status: f.character(2), latitude: try f.latitude(3),
            longitude: try f.longitude(5), speedKnots: try f.nonNegative(7),
            course: try f.course(8), date: try f.date(9), modeIndicator: f.character(12),
            navigationalStatus: f.character(13))
    }
}

extension GSA {
    init(fields f: Fields) throws(FieldError) {
        var used = 0
        for i in 3...14 where !f.isEmpty(i) { used += 1 }
        self.init(
            fixType: try f.int(2), satellitesUsed: used, pdop: try f.nonNegative(15),
            hdop: try f.nonNegative(16), vdop: try f.nonNegative(17), systemID: try f.int(18))
    }
}

extension GSV {
    init(fields f: Fields) throws(FieldError) {
        let satelliteFields = f.count - 4
        let inSentence = max(0, min(4, satelliteFields / 4))
        let signalID = satelliteFields % 4 == 1 ? try f.int(f.count - 1) : nil
        self.init(
            messageCount: try f.int(1), messageNumber: try f.int(2), satellitesInView: try f.int(3),
            satellitesInSentence: inSentence, signalID: signalID)
    }
}

extension VTG {
    init(fields f: Fields) throws(FieldError) {
        self.init(
            course: try f.course(1), speedKnots: try f.nonNegative(5),
            speedKmh: try f.nonNegative(7), modeIndicator: f.character(9))
    }
}

extension GLL {
    init(fields f: Fields) throws(FieldError) {
        self.init(
            latitude: try f.latitude(1), longitude: try f.longitude(3),
            timeOfDay: try f.timeOfDay(5), status: f.character(6), modeIndicator: f.character(7))
    }
}

extension GST {
    init(fields f: Fields) throws(FieldError) {
        self.init(
            timeOfDay: try f.timeOfDay(1), rms: try f.nonNegative(2),
            latitudeError: try f.nonNegative(6), longitudeError: try f.nonNegative(7),
            altitudeError: try f.nonNegative(8))
    }
}

extension ZDA {
    init(fields f: Fields) throws(FieldError) {
        var date: Int?
        if let day = try f.int(2), let month = try f.int(3), let year = try f.int(4) {
            guard CivilDate.isValid(year: year, month: month, day: day) else { throw FieldError(index: 2) }
            date = CivilDate.days(year: year, month: month, day: day)
        }
        self.init(timeOfDay: try f.timeOfDay(1), date: date)
    }
}

extension GNS {
    init(fields f: Fields) throws(FieldError) {
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
        self.init(
            timeOfDay: try f.timeOfDay(1), latitude: try f.latitude(2),
            longitude: try f.longitude(4), valid: valid, modeIndicator: best,
            satellitesUsed: try f.int(7), hdop: try f.nonNegative(8), altitude: try f.double(9),
            geoidSeparation: try f.double(10))
    }
}

extension PGRME {
    init(fields f: Fields) throws(FieldError) {
        self.init(
            horizontalError: try f.nonNegative(1), verticalError: try f.nonNegative(3),
            sphericalError: try f.nonNegative(5))
    }
}
