import Foundation
import MeridianTesting
import Testing

/// A log with thousands of bad lines gives a few located errors and one summary, not a line per bad line.
@Suite("error floods from damaged logs")
struct ErrorFloodTests {
    /// A gpsd JSON log: a VERSION line, 20 good fixes and 3,000 lines that are not JSON, mixed.
    static func floodedLog(in directory: URL) throws -> URL {
        var lines = [#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#]
        for index in 0..<3000 {
            if index % 150 == 0 {
                let second = index / 150
                lines.append(
                    #"{"class":"TPV","mode":3,"time":"2024-05-01T07:00:\#(second < 10 ? "0" : "")\#(second).000Z","lat":48.1,"lon":11.5}"#
                )
            }
            lines.append(#"{"class":"TPV","mode":3,"time":broken \#(index)"#)
        }
        let url = directory.appendingPathComponent("flooded.json")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("meridian replay shows the first errors with their line, then one summary with the counts")
    func replayCommand() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.floodedLog(in: directory)
        let result = try MeridianBinary.run(["replay", log.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 20)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count <= 8, "\(lines.count) lines on stderr")
        #expect(lines.first?.contains("flooded.json:3:") == true, "\(result.stderr)")
        #expect(
            result.stderr.contains("3000 problems") && result.stderr.contains("the first 5 are shown"),
            "\(result.stderr)")
    }

    @Test("the replay provider logs the first errors and one summary per pass")
    func replayProvider() async throws {
        let served = try await ServedInstance { directory in
            let log = try Self.floodedLog(in: directory)
            return """
                http:
                  port: 0
                providers:
                  - id: flooded
                    type: replay
                    file: \(log.path)
                    speed: 0
                consumers:
                  - type: run-tracker
                """
        }
        defer { served.stop() }
        try await served.waitForProvider("flooded", state: "finished")
        let log = served.process.output().split(separator: "\n").filter { $0.contains("flooded.json") }
        #expect(log.count <= 8, "\(log.count) log lines about the file")
        #expect(log.contains { $0.contains("3000 problems") }, "\(log)")
        let counters = try await served.provider("flooded")?["counters"] as? [String: Int]
        #expect(counters?["read_errors"] == 3000, "\(String(describing: counters))")
    }
}
