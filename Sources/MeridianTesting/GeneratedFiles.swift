import Foundation

/// Files made by tests on the fly: gzip streams and long GPX tracks (big inputs are never committed).
public enum GeneratedFiles {
    /// `data` compressed by the system's gzip at `level` (1 fastest … 9 smallest).
    public static func gzip(_ data: Data, level: Int = 9) throws -> Data {
        let directory = try TestData.temporaryDirectory("gzip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("input")
        try data.write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", "-\(level)", input.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSupportError("gzip exited with \(process.terminationStatus)")
        }
        return try Data(contentsOf: directory.appendingPathComponent("input.gz"))
    }

    /// When the points of `longGPX` start: 2024-05-01T07:00:00Z.
    public static let longGPXStart = Date(timeIntervalSince1970: 1_714_546_800)

    /// A GPX of `count` points one second apart from `longGPXStart`, at one place, 75 bytes each.
    public static func longGPX(points count: Int) -> Data {
        var document = Data("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"x\"><trk><trkseg>\n".utf8)
        document.reserveCapacity(count * 75 + 100)
        let formatter = ISO8601DateFormatter()
        let opening = "<trkpt lat=\"48.1\" lon=\"11.5\"><time>"
        let secondsAt = opening.utf8.count + "2024-05-01T07:00:".utf8.count
        // One template per minute; the seconds are written in place.
        var template: [UInt8] = []
        for index in 0..<count {
            if index % 60 == 0 {
                let minute = formatter.string(from: longGPXStart.addingTimeInterval(Double(index)))
                template = Array("\(opening)\(minute)</time></trkpt>\n".utf8)
            }
            let second = index % 60
            template[secondsAt] = UInt8(ascii: "0") + UInt8(second / 10)
            template[secondsAt + 1] = UInt8(ascii: "0") + UInt8(second % 10)
            document.append(contentsOf: template)
        }
        document.append(contentsOf: Array("</trkseg></trk></gpx>\n".utf8))
        return document
    }
}
