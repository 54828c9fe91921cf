import Foundation
import MeridianTesting

/// Reports received from a gpsd server, decoded one JSON object per line.
struct GPSDLines {
    let objects: [[String: Any]]

    init(_ data: Data) {
        objects = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// The `class` of every report, in order.
    var classes: [String] { objects.compactMap { $0["class"] as? String } }

    /// Every report of class `name`.
    func reports(_ name: String) -> [[String: Any]] { objects.filter { $0["class"] as? String == name } }

    /// Latitude and longitude of every TPV with a position, and the device that sent it.
    var positions: [(latitude: Double, longitude: Double, device: String)] {
        reports("TPV").compactMap { report in
            guard let latitude = report["lat"] as? Double, let longitude = report["lon"] as? Double else { return nil }
            return (latitude, longitude, report["device"] as? String ?? "")
        }
    }

    /// Number of TPV reports in `data` (without decoding it).
    static func tpvCount(_ data: Data) -> Int {
        String(decoding: data, as: UTF8.self).components(separatedBy: #""class":"TPV""#).count - 1
    }
}

extension TestSocket {
    /// Reads until `count` TPV reports have arrived in total; fails after `timeout` seconds.
    func readTPVs(_ count: Int, timeout: Double = 30) async throws -> GPSDLines {
        let (data, _) = try await read(timeout: timeout) { GPSDLines.tpvCount($0) >= count }
        guard GPSDLines.tpvCount(data) >= count else {
            throw TestSupportError(
                "got \(GPSDLines.tpvCount(data)) TPV reports, not \(count): \(String(decoding: data.suffix(600), as: UTF8.self))"
            )
        }
        return GPSDLines(data)
    }

    /// Reads until the text received contains `text`; fails after `timeout` seconds.
    func read(until text: String, timeout: Double = 30) async throws -> String {
        let (data, _) = try await read(timeout: timeout) { String(decoding: $0, as: UTF8.self).contains(text) }
        let received = String(decoding: data, as: UTF8.self)
        guard received.contains(text) else {
            throw TestSupportError("'\(text)' did not arrive; got: \(received.suffix(600))")
        }
        return received
    }
}
