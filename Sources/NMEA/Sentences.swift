/// Who sent a sentence: the two letters after `$`.
public enum Talker: String, Sendable, CaseIterable {
    case gp = "GP"
    case gn = "GN"
    case gl = "GL"
    case ga = "GA"
    case gb = "GB"
    case bd = "BD"
    case gq = "GQ"
    case qz = "QZ"
    case gi = "GI"
    /// Quectel's `$PQGSV`/`$PQGSA` quirk (BeiDou/QZSS), decoded like gpsd does.
    case pq = "PQ"
    /// Proprietary sentences (`$P…`), such as Garmin's `PGRME`.
    case proprietary = "P"
}

/// GGA: time, position, quality, satellites, HDOP, altitude.
public struct GGA: Sendable, Equatable {
    public var timeOfDay: Int?
    public var latitude: Double?
    public var longitude: Double?
    /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning, 7 manual, 8 simulation.
    public var quality: Int?
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Altitude above mean sea level, metres.
    public var altitude: Double?
    /// Geoid separation (HAE minus MSL), metres.
    public var geoidSeparation: Double?
}

/// RMC: time, status, position, speed, course, date (NMEA 2.3 mode, 4.10 navigational status).
public struct RMC: Sendable, Equatable {
    public var timeOfDay: Int?
    /// `A` valid, `V` warning.
    public var status: UInt8?
    public var latitude: Double?
    public var longitude: Double?
    public var speedKnots: Double?
    public var course: Double?
    /// Days since 1970-01-01.
    public var date: Int?
    /// NMEA 2.3 mode: A autonomous, D differential, E estimated, F float RTK, M manual, N not valid, P precise, R RTK, S simulator.
    public var modeIndicator: UInt8?
    /// NMEA 4.10 navigational status (S safe, C caution, U unsafe, V not provided); informative only.
    public var navigationalStatus: UInt8?
}

/// GSA: DOPs and the dimension of the solution (NMEA 4.10 system id).
public struct GSA: Sendable, Equatable {
    /// 1 no fix, 2 2D, 3 3D.
    public var fixType: Int?
    /// Satellites listed as used in this sentence.
    public var satellitesUsed: Int
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?
    /// NMEA 4.10 GNSS system id (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC).
    public var systemID: Int?
}

/// GSV: satellites in view (NMEA 4.10 signal id).
public struct GSV: Sendable, Equatable {
    public var messageCount: Int?
    public var messageNumber: Int?
    public var satellitesInView: Int?
    /// Satellites described in this sentence (0–4).
    public var satellitesInSentence: Int
    public var signalID: Int?
}

/// VTG: course and speed over ground.
public struct VTG: Sendable, Equatable {
    public var course: Double?
    public var speedKnots: Double?
    public var speedKmh: Double?
    public var modeIndicator: UInt8?
}

/// GLL: position and time.
public struct GLL: Sendable, Equatable {
    public var latitude: Double?
    public var longitude: Double?
    public var timeOfDay: Int?
    public var status: UInt8?
    public var modeIndicator: UInt8?
}

/// GST: pseudorange error statistics, metres (1 sigma).
public struct GST: Sendable, Equatable {
    public var timeOfDay: Int?
    public var rms: Double?
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?
}

/// ZDA: time and full date.
public struct ZDA: Sendable, Equatable {
    public var timeOfDay: Int?
    /// Days since 1970-01-01.
    public var date: Int?
}

/// GNS: multi-constellation fix data.
public struct GNS: Sendable, Equatable {
    public var timeOfDay: Int?
    public var latitude: Double?
    public var longitude: Double?
    /// True when any constellation's mode character says the position is valid (not `N`).
    public var valid: Bool
    /// The best mode character (D/F/R/P/A…) for the quality.
    public var modeIndicator: UInt8?
    public var satellitesUsed: Int?
    public var hdop: Double?
    public var altitude: Double?
    public var geoidSeparation: Double?
}

/// Garmin PGRME: estimated position errors, metres.
public struct PGRME: Sendable, Equatable {
    public var horizontalError: Double?
    public var verticalError: Double?
    public var sphericalError: Double?
}

/// One decoded sentence.
public enum NMEASentence: Sendable, Equatable {
    case gga(GGA)
    case rmc(RMC)
    case gsa(GSA)
    case gsv(GSV)
    case vtg(VTG)
    case gll(GLL)
    case gst(GST)
    case zda(ZDA)
    case gns(GNS)
    /// TXT: free text from the receiver (not needed for fixes).
    case txt
    case pgrme(PGRME)
}
