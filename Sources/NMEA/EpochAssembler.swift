import Foundation
import MeridianCore

/// Merges the sentences of one receiver cycle into one `Fix`.
///
/// A sentence with a different time of day starts a new epoch and completes the
/// previous one. GGA, RMC, GLL, GNS, GSA, GST, VTG, ZDA and PGRME are merged:
/// position from any of them, altitude and quality from GGA/GNS, speed and course
/// from RMC (else VTG), the mode 3D when an altitude was reported (unless GSA says 2D with under 4 satellites), else from GSA
/// (else the previous epoch's, when a cycle lost its GGA), accuracy from PGRME (else GST). The date comes from RMC/ZDA; an
/// epoch with a time of day only uses the last date seen (advanced at midnight),
/// or `assumedDate` before any date arrives.
public struct EpochAssembler: Sendable {
    /// The id put in every fix.
    public let providerID: String
    /// The UTC day to use for time-of-day-only sentences before the receiver has sent a date
    /// (e.g. today's date for a live GGA-only receiver); without it such epochs are counted as undated.
    public var assumedDate: Date?

    private var epoch = Epoch()
    private var lastDate: Int?
    private var lastTimeOfDay: Int?
    private var lastMode = FixMode.noFix
    private(set) var undatedEpochs = 0
    private(set) var fixesEmitted = 0

    private static let knotsToMetresPerSecond = 1852.0 / 3600.0
    private static let millisecondsPerDay = 86_400_000

    public init(providerID: String) {
        self.providerID = providerID
    }

    /// Adds a sentence; returns the fix of the previous epoch when this sentence starts a new one.
    public mutating func add(_ sentence: NMEASentence) -> Fix? {
        var completed: Fix?
        if let time = sentence.timeOfDay {
            if let current = epoch.timeOfDay, current != time {
                completed = flush()
            }
            epoch.timeOfDay = time
        }
        epoch.merge(sentence)
        return completed
    }

    /// Completes the current epoch (end of input).
    public mutating func finish() -> Fix? {
        flush()
    }

    private mutating func flush() -> Fix? {
        defer { epoch = Epoch() }
        guard let timeOfDay = epoch.timeOfDay else { return nil }
        let day: Int
        if let date = epoch.date {
            day = date
        } else if let lastDate, let lastTimeOfDay {
            // Past midnight when the clock jumps back by more than half a day.
            day = timeOfDay + Self.millisecondsPerDay / 2 < lastTimeOfDay ? lastDate + 1 : lastDate
        } else if let assumedDate {
            day = Int((assumedDate.timeIntervalSince1970 / 86_400).rounded(.down))
        } else {
            undatedEpochs += 1
            return nil
        }
        lastDate = day
        lastTimeOfDay = timeOfDay
        let time = Date(timeIntervalSince1970: Double(day) * 86_400 + Double(timeOfDay) / 1000)
        fixesEmitted += 1
        let fix = epoch.fix(time: time, providerID: providerID, previousMode: lastMode)
        lastMode = fix.mode
        return fix
    }
}

/// What one receiver cycle said so far.
private struct Epoch {
    var timeOfDay: Int?
    var date: Int?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var course: Double?
    var vtgSpeed: Double?
    var vtgCourse: Double?
    var ggaQuality: Int?
    var gnsValid: Bool?
    var rmcValid: Bool?
    var gllValid: Bool?
    var modeIndicator: UInt8?
    var gsaFixType: Int?
    var gsaSatellites = 0
    var satellitesUsed: Int?
    var gstHorizontal: Double?
    var gstVertical: Double?
    var pgrmeHorizontal: Double?
    var pgrmeVertical: Double?

    mutating func merge(_ sentence: NMEASentence) {
        switch sentence {
        case .gga(let s):
            setPosition(s.latitude, s.longitude)
            ggaQuality = s.quality ?? ggaQuality
            satellitesUsed = s.satellitesUsed ?? satellitesUsed
            altitude = s.altitude ?? altitude
            geoidSeparation = s.geoidSeparation ?? geoidSeparation
        case .rmc(let s):
            setPosition(s.latitude, s.longitude)
            if let status = s.status {
                rmcValid = status == UInt8(ascii: "A") && s.modeIndicator != UInt8(ascii: "N")
            }
            modeIndicator = s.modeIndicator ?? modeIndicator
            speed = s.speedKnots.map { $0 * Self.knots } ?? speed
            course = s.course ?? course
            date = s.date ?? date
        case .gll(let s):
            setPosition(s.latitude, s.longitude)
            if let status = s.status {
                gllValid = status == UInt8(ascii: "A") && s.modeIndicator != UInt8(ascii: "N")
            }
        case .gns(let s):
            setPosition(s.latitude, s.longitude)
            gnsValid = s.valid
            modeIndicator = s.modeIndicator ?? modeIndicator
            satellitesUsed = s.satellitesUsed ?? satellitesUsed
            altitude = s.altitude ?? altitude
            geoidSeparation = s.geoidSeparation ?? geoidSeparation
        case .gsa(let s):
            if let type = s.fixType, (1...3).contains(type) { gsaFixType = max(gsaFixType ?? 1, type) }
            gsaSatellites += s.satellitesUsed
        case .vtg(let s):
            vtgSpeed = s.speedKnots.map { $0 * Self.knots } ?? s.speedKmh.map { $0 / 3.6 } ?? vtgSpeed
            vtgCourse = s.course ?? vtgCourse
        case .gst(let s):
            if let lat = s.latitudeError, let lon = s.longitudeError {
                gstHorizontal = (lat * lat + lon * lon).squareRoot()
            }
            gstVertical = s.altitudeError ?? gstVertical
        case .zda(let s):
            date = s.date ?? date
        case .pgrme(let s):
            pgrmeHorizontal = s.horizontalError ?? pgrmeHorizontal
            pgrmeVertical = s.verticalError ?? pgrmeVertical
        case .gsv, .txt:
            break
        }
    }

    private static let knots = 1852.0 / 3600.0

    private mutating func setPosition(_ lat: Double?, _ lon: Double?) {
        if let lat, let lon {
            latitude = lat
            longitude = lon
        }
    }

    /// Whether the receiver says its position is valid: GGA quality first, then GNS, RMC, GLL.
    private var positionValid: Bool {
        if let ggaQuality { return ggaQuality > 0 }
        return gnsValid ?? rmcValid ?? gllValid ?? false
    }

    /// The fix for this epoch. `previousMode` is used when the epoch says the position is valid but not its
    /// dimension (a cycle whose GGA was lost, leaving only GLL or RMC), as gpsd does.
    func fix(time: Date, providerID: String, previousMode: FixMode) -> Fix {
        var coordinate: Coordinate?
        var mode = FixMode.noFix
        if positionValid, gsaFixType != 1, let latitude, let longitude,
           let position = try? Coordinate(latitude: latitude, longitude: longitude) {
            coordinate = position
            // An altitude is a 3D solution unless GSA says otherwise for fewer than four satellites (as gpsd decides).
            if altitude != nil, (satellitesUsed ?? 4) >= 4 || gsaFixType == nil {
                mode = .threeD
            } else if let gsaFixType {
                mode = gsaFixType == 3 ? .threeD : .twoD
            } else {
                mode = previousMode == .noFix ? .twoD : previousMode
            }
        }
        let hasFix = mode != .noFix
        let altitudeMSL = hasFix && mode == .threeD ? altitude : nil
        var altitudeHAE: Double?
        // Both inputs have at most a few decimals; rounding to 0.1 mm removes binary noise (461.90000000000003).
        if let altitudeMSL, let geoidSeparation { altitudeHAE = ((altitudeMSL + geoidSeparation) * 10_000).rounded() / 10_000 }
        return Fix(
            time: time,
            coordinate: coordinate,
            altitudeHAE: altitudeHAE,
            altitudeMSL: altitudeMSL,
            speed: hasFix ? (speed ?? vtgSpeed) : nil,
            course: hasFix ? (course ?? vtgCourse) : nil,
            horizontalAccuracy: hasFix ? (pgrmeHorizontal ?? gstHorizontal) : nil,
            verticalAccuracy: hasFix && mode == .threeD ? (pgrmeVertical ?? gstVertical) : nil,
            mode: mode,
            quality: hasFix ? quality : nil,
            satellitesUsed: satellitesUsed ?? (gsaSatellites > 0 ? gsaSatellites : nil),
            providerID: providerID
        )
    }

    private var quality: FixQuality? {
        if let ggaQuality {
            switch ggaQuality {
            case 1: return .gps
            case 2: return .dgps
            case 3: return .pps
            case 4: return .rtkFixed
            case 5: return .rtkFloat
            case 6: return .deadReckoning
            case 7: return .manual
            case 8: return .simulated
            default: return nil
            }
        }
        switch modeIndicator {
        case UInt8(ascii: "A"), UInt8(ascii: "P"): return .gps
        case UInt8(ascii: "D"): return .dgps
        case UInt8(ascii: "E"): return .deadReckoning
        case UInt8(ascii: "F"): return .rtkFloat
        case UInt8(ascii: "R"): return .rtkFixed
        case UInt8(ascii: "M"): return .manual
        case UInt8(ascii: "S"): return .simulated
        default: return nil
        }
    }
}

extension NMEASentence {
    /// The time of day the sentence carries, in milliseconds since midnight UTC.
    public var timeOfDay: Int? {
        switch self {
        case .gga(let s): return s.timeOfDay
        case .rmc(let s): return s.timeOfDay
        case .gll(let s): return s.timeOfDay
        case .gst(let s): return s.timeOfDay
        case .zda(let s): return s.timeOfDay
        case .gns(let s): return s.timeOfDay
        case .gsa, .gsv, .vtg, .txt, .pgrme: return nil
        }
    }
}
