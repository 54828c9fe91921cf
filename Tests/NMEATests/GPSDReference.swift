import Foundation
import MeridianCore
import MeridianTesting
import NMEA

/// gpsd's view of one epoch: the last TPV report it printed for a given time.
struct GPSDEpoch: Equatable {
    var time: String
    var mode: Int
    var latitude: Double?
    var longitude: Double?
    var speed: Double?
    var track: Double?
}

/// Reads gpsd's expected output (`*.chk` from gpsd's regression suite, or `gpsd-3.22-out/*.out`).
enum GPSDReference {
    /// The last TPV for each distinct time, in order of first appearance. TPVs without a time are skipped:
    /// they cannot be matched to an epoch.
    static func epochs(in url: URL) throws -> [GPSDEpoch] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var order: [String] = []
        var byTime: [String: GPSDEpoch] = [:]
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let time = object["time"] as? String, let mode = object["mode"] as? Int
            else { continue }
            if byTime[time] == nil { order.append(time) }
            byTime[time] = GPSDEpoch(
                time: time, mode: mode, latitude: object["lat"] as? Double,
                longitude: object["lon"] as? Double, speed: object["speed"] as? Double,
                track: object["track"] as? Double)
        }
        return order.compactMap { byTime[$0] }
    }
}

/// Decodes a whole file with the stream decoder in uneven chunks (to exercise chunk boundaries).
func decodeFile(_ url: URL, checksum: ChecksumPolicy = .required, chunk: Int = 61) throws -> (
    fixes: [Fix], counters: NMEACounters
) {
    let data = try Data(contentsOf: url)
    var decoder = NMEAStreamDecoder(providerID: "test", checksum: checksum)
    var fixes: [Fix] = []
    var start = data.startIndex
    while start < data.endIndex {
        let end = min(start + chunk, data.endIndex)
        fixes += decoder.feed(data[start..<end])
        start = end
    }
    fixes += decoder.finish()
    return (fixes, decoder.counters)
}
