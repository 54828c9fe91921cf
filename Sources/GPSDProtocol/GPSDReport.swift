import Foundation
import MeridianCore

/// One line of gpsd's JSON protocol, decoded by its `class`.
///
/// Only the classes and keys Meridian uses are modelled; unknown keys are
/// ignored and unknown classes become `.other`.
enum GPSDReport: Decodable {
    case version(GPSDVersion)
    case tpv(GPSDTPV)
    case sky(GPSDSky)
    case gst(GPSDGST)
    case error(message: String)
    case poll(GPSDPoll)
    case devices([GPSDDevice])
    case device(GPSDDevice)
    case watch
    case other(className: String)

    private enum ClassKey: String, CodingKey { case `class` }
    private enum ErrorKey: String, CodingKey { case message }
    private enum DevicesKey: String, CodingKey { case devices }

    init(from decoder: any Decoder) throws {
        let className = try decoder.container(keyedBy: ClassKey.self).decode(String.self, forKey: .class)
        switch className {
        case "VERSION": self = .version(try GPSDVersion(from: decoder))
        case "TPV": self = .tpv(try GPSDTPV(from: decoder))
        case "SKY": self = .sky(try GPSDSky(from: decoder))
        case "GST": self = .gst(try GPSDGST(from: decoder))
        case "ERROR":
            let message = try decoder.container(keyedBy: ErrorKey.self).decodeIfPresent(String.self, forKey: .message)
            self = .error(message: message ?? "gpsd reported an error without a message")
        case "POLL": self = .poll(try GPSDPoll(from: decoder))
        case "DEVICES":
            let devices = try decoder.container(keyedBy: DevicesKey.self).decodeIfPresent(
                [GPSDDevice].self, forKey: .devices)
            self = .devices(devices ?? [])
        case "DEVICE": self = .device(try GPSDDevice(from: decoder))
        case "WATCH": self = .watch
        default: self = .other(className: className)
        }
    }
}

/// `VERSION`: the daemon's release and protocol revision.
public struct GPSDVersion: Decodable, Sendable, Equatable {
    public var release: String?
    public var protoMajor: Int
    public var protoMinor: Int?

    enum CodingKeys: String, CodingKey {
        case release
        case protoMajor = "proto_major"
        case protoMinor = "proto_minor"
    }
}

/// `TPV`: time, position, velocity. gpsd sends several per epoch, each cumulative.
struct GPSDTPV: Decodable {
    var device: String?
    var mode: Int?
    var status: Int?
    var time: GPSDTime?
    var lat: Double?
    var lon: Double?
    var alt: Double?
    var altHAE: Double?
    var altMSL: Double?
    var speed: Double?
    var track: Double?
    var eph: Double?
    var epv: Double?
    var epx: Double?
    var epy: Double?

    /// Fields of `newer` replace those of `self` where `newer` has them.
    func merged(with newer: GPSDTPV) -> GPSDTPV {
        GPSDTPV(
            device: newer.device ?? device, mode: newer.mode ?? mode, status: newer.status ?? status,
            time: newer.time ?? time, lat: newer.lat ?? lat, lon: newer.lon ?? lon, alt: newer.alt ?? alt,
            altHAE: newer.altHAE ?? altHAE, altMSL: newer.altMSL ?? altMSL, speed: newer.speed ?? speed,
            track: newer.track ?? track, eph: newer.eph ?? eph, epv: newer.epv ?? epv,
            epx: newer.epx ?? epx, epy: newer.epy ?? epy)
    }
}

/// A gpsd time: an ISO 8601 string (protocol 3.10 and later) or seconds since 1970 (older daemons).
struct GPSDTime: Decodable, Equatable {
    var date: Date

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self), seconds.isFinite {
            date = Date(timeIntervalSince1970: seconds)
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = ISO8601.date(from: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 time")
        }
        date = parsed
    }
}

/// `SKY`: satellites in view; Meridian uses only how many are used in the solution.
struct GPSDSky: Decodable {
    struct Satellite: Decodable { var used: Bool? }
    var device: String?
    var time: GPSDTime?
    var uSat: Int?
    var satellites: [Satellite]?

    /// `uSat`, or the number of satellites flagged `used`; `nil` when gpsd knows of no satellite
    /// (a `POLL` answer before any GSV/GSA, or a receiver that reports none, says `uSat: 0`).
    var satellitesUsed: Int? {
        let listed = satellites ?? []
        if let uSat, uSat > 0 || !listed.isEmpty { return uSat }
        guard !listed.isEmpty else { return nil }
        return listed.filter { $0.used == true }.count
    }
}

/// `GST`: pseudorange error statistics; the 1-sigma errors serve as an accuracy fallback.
struct GPSDGST: Decodable {
    var device: String?
    var time: GPSDTime?
    var lat: Double?
    var lon: Double?
    var alt: Double?
}

/// `POLL`: the latest reports of every active device, answered to `?POLL;`.
struct GPSDPoll: Decodable {
    var tpv: [GPSDTPV]?
    var sky: [GPSDSky]?
    var gst: [GPSDGST]?
}

/// An entry of `DEVICES`, or a `DEVICE` notification.
struct GPSDDevice: Decodable {
    var path: String?
    /// When the device was activated; absent or 0 when it was closed.
    var activated: GPSDActivation?
}

/// gpsd writes `activated` as an ISO time when open and as `0` when the device closed.
struct GPSDActivation: Decodable {
    var isActive: Bool

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            isActive = number != 0
        } else {
            isActive = !(try container.decode(String.self)).isEmpty
        }
    }
}
