import Foundation
import MeridianCore

/// What one receiver cycle said so far.
struct Epoch {
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

    /// Metres per second in one knot.
    static let knots = 1852.0 / 3600.0

    mutating func setPosition(_ lat: Double?, _ lon: Double?) {
        if let lat, let lon {
            latitude = lat
            longitude = lon
        }
    }

    /// Satellites used, altitude and geoid separation, as GGA and GNS report them.
    mutating func mergeSolution(satellitesUsed: Int?, altitude: Double?, geoidSeparation: Double?) {
        self.satellitesUsed = satellitesUsed ?? self.satellitesUsed
        self.altitude = altitude ?? self.altitude
        self.geoidSeparation = geoidSeparation ?? self.geoidSeparation
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
            let position = try? Coordinate(latitude: latitude, longitude: longitude)
        {
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
        if let altitudeMSL, let geoidSeparation {
            altitudeHAE = ((altitudeMSL + geoidSeparation) * 10_000).rounded() / 10_000
        }
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

extension GGA {
    func merge(into epoch: inout Epoch) {
        epoch.setPosition(latitude, longitude)
        epoch.ggaQuality = quality ?? epoch.ggaQuality
        epoch.mergeSolution(satellitesUsed: satellitesUsed, altitude: altitude, geoidSeparation: geoidSeparation)
    }
}

extension RMC {
    func merge(into epoch: inout Epoch) {
        epoch.setPosition(latitude, longitude)
        if let status {
            epoch.rmcValid = status == UInt8(ascii: "A") && modeIndicator != UInt8(ascii: "N")
        }
        epoch.modeIndicator = modeIndicator ?? epoch.modeIndicator
        epoch.speed = speedKnots.map { $0 * Epoch.knots } ?? epoch.speed
        epoch.course = course ?? epoch.course
        epoch.date = date ?? epoch.date
    }
}

extension GLL {
    func merge(into epoch: inout Epoch) {
        epoch.setPosition(latitude, longitude)
        if let status {
            epoch.gllValid = status == UInt8(ascii: "A") && modeIndicator != UInt8(ascii: "N")
        }
    }
}

extension GNS {
    func merge(into epoch: inout Epoch) {
        epoch.setPosition(latitude, longitude)
        epoch.gnsValid = valid
        epoch.modeIndicator = modeIndicator ?? epoch.modeIndicator
        epoch.mergeSolution(satellitesUsed: satellitesUsed, altitude: altitude, geoidSeparation: geoidSeparation)
    }
}

extension GSA {
    func merge(into epoch: inout Epoch) {
        if let fixType, (1...3).contains(fixType) { epoch.gsaFixType = max(epoch.gsaFixType ?? 1, fixType) }
        epoch.gsaSatellites += satellitesUsed
    }
}

extension VTG {
    func merge(into epoch: inout Epoch) {
        epoch.vtgSpeed = speedKnots.map { $0 * Epoch.knots } ?? speedKmh.map { $0 / 3.6 } ?? epoch.vtgSpeed
        epoch.vtgCourse = course ?? epoch.vtgCourse
    }
}

extension GST {
    func merge(into epoch: inout Epoch) {
        if let latitudeError, let longitudeError {
            epoch.gstHorizontal = (latitudeError * latitudeError + longitudeError * longitudeError).squareRoot()
        }
        epoch.gstVertical = altitudeError ?? epoch.gstVertical
    }
}

extension ZDA {
    func merge(into epoch: inout Epoch) {
        epoch.date = date ?? epoch.date
    }
}

extension PGRME {
    func merge(into epoch: inout Epoch) {
        epoch.pgrmeHorizontal = horizontalError ?? epoch.pgrmeHorizontal
        epoch.pgrmeVertical = verticalError ?? epoch.pgrmeVertical
    }
}
