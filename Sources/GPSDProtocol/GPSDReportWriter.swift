import Foundation
import MeridianCore

/// Writes gpsd JSON reports as gpsd 3.22 sends them to its clients: one object per line, ended by `\r\n`,
/// keys in gpsd's order, numbers with gpsd's decimals.
public enum GPSDReportWriter {
    /// The protocol revision announced in `VERSION` (gpsd 3.22 says 3.14).
    public static let protocolMajor = 3
    public static let protocolMinor = 14

    /// `VERSION`, sent on connect and answered to `?VERSION;`.
    public static func version(release: String) -> String {
        #"{"class":"VERSION","release":"# + quoted(release) + #","rev":"# + quoted(release)
            + #","proto_major":\#(protocolMajor),"proto_minor":\#(protocolMinor)}"# + "\r\n"
    }

    /// `DEVICES`: every device (provider) a client may watch.
    public static func devices(_ devices: [GPSDDeviceInfo]) -> String {
        #"{"class":"DEVICES","devices":["# + devices.map(deviceObject).joined(separator: ",") + "]}\r\n"
    }

    /// `DEVICE`: one device, answered to `?DEVICE;`.
    public static func device(_ device: GPSDDeviceInfo) -> String {
        deviceObject(device) + "\r\n"
    }

    /// `WATCH`: the client's policy after `?WATCH`.
    public static func watch(_ policy: GPSDWatchPolicy) -> String {
        var text =
            #"{"class":"WATCH","enable":\#(policy.enable),"json":\#(policy.json),"nmea":\#(policy.nmea)"#
            + #","raw":\#(policy.raw),"scaled":\#(policy.scaled),"timing":\#(policy.timing)"#
            + #","split24":\#(policy.split24),"pps":\#(policy.pps)"#
        if let device = policy.device { text += #","device":"# + quoted(device) }
        return text + "}\r\n"
    }

    /// `ERROR` with `message`.
    public static func error(_ message: String) -> String {
        #"{"class":"ERROR","message":"# + quoted(message) + "}\r\n"
    }

    /// `TPV` for `fix`, from device `fix.providerID`; keys whose value is unknown are left out, as gpsd does.
    public static func tpv(_ fix: Fix) -> String {
        tpvObject(fix) + "\r\n"
    }

    /// `SKY` for `fix` when it reports the satellites used (Meridian keeps no per-satellite data).
    public static func sky(_ fix: Fix) -> String? {
        guard let used = fix.satellitesUsed else { return nil }
        return skyObject(fix, used: used) + "\r\n"
    }

    /// `POLL`: the latest fix of each watched device, answered to `?POLL;`.
    public static func poll(time: Date, fixes: [Fix]) -> String {
        let sky = fixes.compactMap { fix in fix.satellitesUsed.map { skyObject(fix, used: $0) } }
        return #"{"class":"POLL","time":"\#(ISO8601.string(from: time))","active":\#(fixes.count),"tpv":["#
            + fixes.map(tpvObject).joined(separator: ",") + #"],"gst":[],"sky":["# + sky.joined(separator: ",")
            + "]}\r\n"
    }

    private static func tpvObject(_ fix: Fix) -> String {
        var text =
            #"{"class":"TPV","device":"# + quoted(fix.providerID)
            + #","mode":\#(fix.hasPosition ? fix.mode.rawValue : 1)"#
        if let status = status(fix.quality) { text += #","status":\#(status)"# }
        text += #","time":"\#(ISO8601.string(from: fix.time))""#
        if fix.hasPosition, let coordinate = fix.coordinate {
            text += #","lat":"# + NumberText.fixed(coordinate.latitude, decimals: 9)
            text += #","lon":"# + NumberText.fixed(coordinate.longitude, decimals: 9)
            if fix.mode == .threeD {
                append("altHAE", fix.altitudeHAE, 3, to: &text)
                append("altMSL", fix.altitudeMSL, 3, to: &text)
                append("alt", fix.altitudeMSL ?? fix.altitudeHAE, 3, to: &text)
            }
            // No `epx`/`epy`: gpsd derives them from the receiver's x/y DOPs, which a fix does not keep, and leaves
            // them out when it cannot (as for a receiver whose GSV gives no geometry); a share of `eph` would be made up.
            if fix.mode == .threeD { append("epv", fix.verticalAccuracy, 3, to: &text) }
            append("track", fix.course, 4, to: &text)
            append("speed", fix.speed, 3, to: &text)
            append("eph", fix.horizontalAccuracy, 3, to: &text)
        }
        return text + "}"
    }

    private static func skyObject(_ fix: Fix, used: Int) -> String {
        #"{"class":"SKY","device":"# + quoted(fix.providerID)
            + #","time":"\#(ISO8601.string(from: fix.time))","uSat":\#(used)}"#
    }

    private static func deviceObject(_ device: GPSDDeviceInfo) -> String {
        var text = #"{"class":"DEVICE","path":"# + quoted(device.path)
        if let activated = device.activated { text += #","activated":"\#(ISO8601.string(from: activated))""# }
        return text + #","flags":1,"driver":"# + quoted(device.driver) + "}"
    }

    /// gpsd's `status`: left out for an ordinary GPS fix (1), as gpsd does.
    private static func status(_ quality: FixQuality?) -> Int? {
        guard let quality, quality != .gps else { return nil }
        return GPSDFixBuilder.qualityByStatus.first { $0.value == quality }?.key
    }

    private static func append(_ key: String, _ value: Double?, _ decimals: Int, to text: inout String) {
        guard let value, value.isFinite else { return }
        text += #",""# + key + #"":"# + NumberText.fixed(value, decimals: decimals)
    }

    /// `text` as a JSON string literal, escaped as Meridian's encoder escapes it.
    static func quoted(_ text: String) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONScratchWriter.escapedCapacity(text)) { buffer in
            guard let base = buffer.baseAddress else { return "\"\"" }
            var writer = JSONScratchWriter(base: base)
            writer.string(text)
            return String(decoding: UnsafeBufferPointer(start: base, count: writer.count), as: UTF8.self)
        }
    }
}

/// One device as `DEVICES` and `DEVICE` list it: Meridian's providers.
public struct GPSDDeviceInfo: Sendable, Equatable {
    /// The provider id, given as the device path.
    public var path: String
    /// The provider type, given as the driver.
    public var driver: String
    /// When the device last sent a fix; gpsd leaves `activated` out for a device that is not open.
    public var activated: Date?

    public init(path: String, driver: String, activated: Date?) {
        self.path = path
        self.driver = driver
        self.activated = activated
    }
}
