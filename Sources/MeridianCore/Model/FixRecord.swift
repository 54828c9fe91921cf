import Foundation

/// The JSON shape of a `Fix`, shared by the CLI (`replay --json`, `gpsd watch`),
/// `GET /v1/position` and the `fix` event. Keys follow gpsd's TPV names where
/// one exists; unknown values are left out rather than written as null.
public struct FixRecord: Codable, Sendable, Equatable {
    public var time: String
    public var lat: Double?
    public var lon: Double?
    public var altHAE: Double?
    public var altMSL: Double?
    public var speed: Double?
    public var track: Double?
    public var mode: Int
    public var quality: String?
    public var eph: Double?
    public var epv: Double?
    public var satellitesUsed: Int?
    public var provider: String?
    public var signal: String?

    // Raw values survive MeridianJSON's snake_case conversion both ways ("altHae" <-> "alt_hae").
    enum CodingKeys: String, CodingKey {
        case time, lat, lon
        case altHAE = "altHae"
        case altMSL = "altMsl"
        case speed, track, mode, quality, eph, epv
        case satellitesUsed
        case provider, signal
    }

    /// Builds the record; `includeProvider` adds the provider id and signal level (API use).
    public init(_ fix: Fix, includeProvider: Bool = false) {
        time = ISO8601.string(from: fix.time)
        lat = fix.coordinate?.latitude
        lon = fix.coordinate?.longitude
        altHAE = fix.altitudeHAE
        altMSL = fix.altitudeMSL
        speed = fix.speed
        track = fix.course
        mode = fix.mode.rawValue
        quality = fix.quality?.rawValue
        eph = fix.horizontalAccuracy
        epv = fix.verticalAccuracy
        satellitesUsed = fix.satellitesUsed
        if includeProvider {
            provider = fix.providerID
            signal = fix.signalQuality?.rawValue
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encodeIfPresent(lat, forKey: .lat)
        try container.encodeIfPresent(lon, forKey: .lon)
        try container.encodeIfPresent(altHAE, forKey: .altHAE)
        try container.encodeIfPresent(altMSL, forKey: .altMSL)
        try container.encodeIfPresent(speed, forKey: .speed)
        try container.encodeIfPresent(track, forKey: .track)
        try container.encode(mode, forKey: .mode)
        try container.encodeIfPresent(quality, forKey: .quality)
        try container.encodeIfPresent(eph, forKey: .eph)
        try container.encodeIfPresent(epv, forKey: .epv)
        try container.encodeIfPresent(satellitesUsed, forKey: .satellitesUsed)
        try container.encodeIfPresent(provider, forKey: .provider)
        try container.encodeIfPresent(signal, forKey: .signal)
    }
}
