import Foundation
import MeridianCore

/// Turns one merged epoch of TPV reports (plus the latest SKY and GST) into a `Fix`.
struct GPSDFixBuilder {
    var providerID: String

    /// Why an epoch produced no fix, or the fix it produced.
    enum Outcome {
        case fix(Fix)
        /// gpsd reported mode 2 or 3 without a valid latitude/longitude; a no-fix is emitted instead.
        case invalidPosition(Fix)
    }

    /// Builds the fix for `tpv`, which must carry a time.
    func build(_ tpv: GPSDTPV, time: Date, satellitesUsed: Int?, gst: GPSDGST?) -> Outcome {
        let mode = tpv.mode ?? 0
        guard mode >= 2 else { return .fix(noFix(time: time, satellitesUsed: satellitesUsed)) }
        guard let latitude = tpv.lat, let longitude = tpv.lon,
            let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
        else { return .invalidPosition(noFix(time: time, satellitesUsed: satellitesUsed)) }

        let threeD = mode >= 3
        let altitudeHAE = threeD ? finite(tpv.altHAE) : nil
        var altitudeMSL = threeD ? finite(tpv.altMSL) : nil
        if threeD, altitudeHAE == nil, altitudeMSL == nil {
            altitudeMSL = finite(tpv.alt)  // before protocol 3.20 `alt` was the only altitude (MSL)
        }

        return .fix(
            Fix(
                time: time,
                coordinate: coordinate,
                altitudeHAE: altitudeHAE,
                altitudeMSL: altitudeMSL,
                speed: nonNegative(tpv.speed),
                course: normalisedCourse(tpv.track),
                horizontalAccuracy: horizontalAccuracy(tpv, gst: gst),
                verticalAccuracy: threeD ? (nonNegative(tpv.epv) ?? nonNegative(gst?.alt)) : nil,
                mode: threeD ? .threeD : .twoD,
                quality: Self.quality(status: tpv.status),
                satellitesUsed: satellitesUsed,
                providerID: providerID))
    }

    private func noFix(time: Date, satellitesUsed: Int?) -> Fix {
        Fix(time: time, coordinate: nil, mode: .noFix, satellitesUsed: satellitesUsed, providerID: providerID)
    }

    /// `eph`; else the root sum of squares of `epx`/`epy`; else of GST's latitude/longitude errors.
    private func horizontalAccuracy(_ tpv: GPSDTPV, gst: GPSDGST?) -> Double? {
        if let eph = nonNegative(tpv.eph) { return eph }
        if let x = nonNegative(tpv.epx), let y = nonNegative(tpv.epy) { return (x * x + y * y).squareRoot() }
        if let x = nonNegative(gst?.lon), let y = nonNegative(gst?.lat) { return (x * x + y * y).squareRoot() }
        return nil
    }

    /// gpsd `status` values and what they mean (0 is unknown).
    static let qualityByStatus: [Int: FixQuality] = [
        1: .gps, 2: .dgps, 3: .rtkFixed, 4: .rtkFloat, 5: .deadReckoning, 6: .gnssDeadReckoning, 7: .manual,
        8: .simulated, 9: .pps
    ]

    /// gpsd `status`: absent means an ordinary GPS fix; 0 means unknown.
    static func quality(status: Int?) -> FixQuality? {
        guard let status else { return .gps }
        return qualityByStatus[status]
    }

    private func finite(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return value
    }

    private func nonNegative(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }

    private func normalisedCourse(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        let course = value.truncatingRemainder(dividingBy: 360)
        let positive = course < 0 ? course + 360 : course
        return positive >= 360 ? 0 : positive
    }
}
