import Foundation
import MeridianCore

/// Synthesises NMEA 0183 sentences (talker `GP`) from a fix, as gpsd does for receivers that speak no NMEA.
enum NMEASentenceWriter {
    /// GGA, RMC, GSA and VTG: what a `?WATCH={"nmea":true}` client gets per fix.
    static func watchSentences(_ fix: Fix) -> String {
        gga(fix) + rmc(fix) + gsa(fix) + vtg(fix)
    }

    /// GGA, RMC and VTG: what `nmea_port` sends per fix.
    static func portSentences(_ fix: Fix) -> String {
        gga(fix) + rmc(fix) + vtg(fix)
    }

    /// `$GPGGA`: time, position, quality, satellites used, altitude above the geoid and the geoid separation.
    static func gga(_ fix: Fix) -> String {
        let position = fix.hasPosition ? fix.coordinate : nil
        let altitude = position == nil || fix.mode != .threeD ? nil : fix.altitudeMSL
        let separation = altitude.flatMap { msl in fix.altitudeHAE.map { $0 - msl } }
        return sentence(
            "GPGGA",
            [
                clock(fix.time), latitude(position), longitude(position),
                position == nil ? "0" : ggaQuality(fix.quality),
                fix.satellitesUsed.map { String(format: "%02d", min($0, 99)) } ?? "", "",
                number(altitude, 3), altitude == nil ? "" : "M", number(separation, 3), separation == nil ? "" : "M",
                "", ""
            ])
    }

    /// `$GPRMC`: time, status, position, speed in knots, course and date, with the NMEA 2.3 mode indicator.
    static func rmc(_ fix: Fix) -> String {
        let position = fix.hasPosition ? fix.coordinate : nil
        return sentence(
            "GPRMC",
            [
                clock(fix.time), position == nil ? "V" : "A", latitude(position), longitude(position),
                number(position == nil ? nil : fix.speed.map { $0 / knot }, 3),
                number(position == nil ? nil : fix.course, 2),
                day(fix.time), "", "", position == nil ? "N" : modeIndicator(fix.quality)
            ])
    }

    /// `$GPGSA`: the fix dimension (Meridian keeps no satellite numbers or DOPs).
    static func gsa(_ fix: Fix) -> String {
        sentence("GPGSA", ["A", "\(fix.hasPosition ? fix.mode.rawValue : 1)"] + Array(repeating: "", count: 15))
    }

    /// `$GPVTG`: course and speed in knots and km/h.
    static func vtg(_ fix: Fix) -> String {
        let moving = fix.hasPosition ? fix.speed : nil
        return sentence(
            "GPVTG",
            [
                number(fix.hasPosition ? fix.course : nil, 2), "T", "", "M", number(moving.map { $0 / knot }, 3), "N",
                number(moving.map { $0 * 3.6 }, 3), "K", fix.hasPosition ? modeIndicator(fix.quality) : "N"
            ])
    }

    /// `$` + `body` + `*` + the checksum (XOR of the bytes between them) + CR LF.
    static func sentence(_ kind: String, _ fields: [String]) -> String {
        let body = ([kind] + fields).joined(separator: ",")
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", checksum) + "\r\n"
    }

    private static let knot = 1852.0 / 3600.0

    private static func latitude(_ coordinate: Coordinate?) -> String {
        guard let coordinate else { return "," }
        return angle(abs(coordinate.latitude), degreeDigits: 2) + (coordinate.latitude < 0 ? ",S" : ",N")
    }

    private static func longitude(_ coordinate: Coordinate?) -> String {
        guard let coordinate else { return "," }
        return angle(abs(coordinate.longitude), degreeDigits: 3) + (coordinate.longitude < 0 ? ",W" : ",E")
    }

    /// `dddmm.mmmmmm`: six decimals of a minute are 2 mm, finer than any receiver.
    private static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        var whole = Int(degrees)
        var minutes = ((degrees - Double(whole)) * 60 * 1_000_000).rounded() / 1_000_000
        if minutes >= 60 {
            whole += 1
            minutes -= 60
        }
        let minuteText = NumberText.fixed(minutes, decimals: 6)
        return String(format: "%0\(degreeDigits)d", whole) + (minutes < 10 ? "0" : "") + minuteText
    }

    private static func clock(_ time: Date) -> String {
        let text = ISO8601.string(from: time)  // YYYY-MM-DDThh:mm:ss.sssZ
        let clock = text.split(separator: "T").last ?? ""
        let digits = clock.filter { $0 != ":" }.dropLast(2)  // hhmmss.ss
        return String(digits)
    }

    private static func day(_ time: Date) -> String {
        let date = ISO8601.string(from: time).prefix(10)  // YYYY-MM-DD
        let parts = date.split(separator: "-")
        guard parts.count == 3 else { return "" }
        return String(parts[2]) + String(parts[1]) + String(parts[0].suffix(2))
    }

    private static func number(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "" }
        return NumberText.fixed(value, decimals: decimals)
    }

    private static func ggaQuality(_ quality: FixQuality?) -> String {
        switch quality {
        case .dgps?: return "2"
        case .pps?: return "3"
        case .rtkFixed?: return "4"
        case .rtkFloat?: return "5"
        case .deadReckoning?, .gnssDeadReckoning?: return "6"
        case .manual?: return "7"
        case .simulated?: return "8"
        case nil, .gps?: return "1"
        }
    }

    private static func modeIndicator(_ quality: FixQuality?) -> String {
        switch quality {
        case .dgps?, .rtkFixed?, .rtkFloat?: return "D"
        case .deadReckoning?, .gnssDeadReckoning?: return "E"
        case .manual?: return "M"
        case .simulated?: return "S"
        case nil, .gps?, .pps?: return "A"
        }
    }
}
