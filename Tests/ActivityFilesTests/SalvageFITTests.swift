import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@Suite("FIT salvage: what a damaged file holds up to its last complete message")
struct SalvageFITTests {
    /// Positions and heart rates in file order: what does not depend on messages after the damage (a missing
    /// session changes the sport, so cadence, and a missing activity message the times of a clock that was not set).
    static func trail(_ activities: [RecordedActivity]) -> [String] {
        activities.flatMap(\.samples).map {
            "\($0.coordinate.map { "\($0.latitude),\($0.longitude)" } ?? "-") \($0.heartRate ?? -1)"
        }
    }

    @Test(
        "every shared FIT file cut at 10 points: refused with what is readable, salvaged as the records before the cut",
        arguments: try TestData.files(in: "fit", suffix: ".fit"))
    func truncations(url: URL) throws {
        let bytes = try Data(contentsOf: url)
        // the damaged ones
        guard let whole = try? ActivityFileReader.read(bytes, file: url.lastPathComponent) else { return }
        let original = Self.trail(whole)
        var previous = 0
        for point in 1...10 {
            let length = bytes.count * point / 11
            let cut = bytes.prefix(length)
            let refusal = try #require(throws: ActivityFileError.self) {
                try ActivityFileReader.read(cut, file: "cut.fit")
            }
            do {
                let salvaged = try ActivityFileReader.salvage(cut, file: "cut.fit")
                let damage = try #require(salvaged.damage)
                let trail = Self.trail(salvaged.activities)
                #expect(!trail.isEmpty && trail == Array(original.prefix(trail.count)), "cut at \(length)")
                #expect(trail.count >= previous, "cut at \(length)")
                #expect((damage.byteOffset ?? .max) <= length)
                #expect(
                    refusal.readable
                        == ReadablePart(bytes: damage.byteOffset ?? -1, totalBytes: length, samples: trail.count))
                #expect(refusal.description.contains("are readable and can be salvaged"))
                previous = trail.count
            } catch {
                // Nothing readable: the cut is before the first record, and the refusal promises nothing.
                #expect(refusal.readable == nil, "cut at \(length): \(error)")
                #expect(previous == 0)
            }
        }
        #expect(previous > 0, "the cut at 10/11 of the file keeps records")
    }

    @Test("a CRC mismatch at the end keeps every record and the device's session")
    func crcMismatch() throws {
        let bytes = try Data(contentsOf: TestData.url("fit/fitparse__activity-filecrc.fit"))
        let salvaged = try ActivityFileReader.salvage(bytes, file: "crc.fit")
        let damage = try #require(salvaged.damage)
        #expect(damage.byteOffset == 769 && damage.message.hasPrefix("file CRC mismatch"))
        let activity = try #require(salvaged.activities.first)
        #expect(activity.samples.count == 14)
        #expect(activity.totals?.distance.map { abs($0 - 5.73) < 0.01 } == true)
    }

    @Test("the real file that breaks off inside its last message keeps its 14 records")
    func unexpectedEnd() throws {
        let bytes = try Data(contentsOf: TestData.url("fit/fitparse__activity-unexpected-eof.fit"))
        let salvaged = try ActivityFileReader.salvage(bytes, file: "eof.fit")
        #expect(salvaged.damage?.byteOffset == 751)
        #expect(salvaged.activities.first?.samples.count == 14)
        #expect(salvaged.activities.first?.totals?.distance != nil, "its session came before the damage")
    }

    @Test(
        "garbage after the last good record: the whole activity, damage where the garbage starts",
        arguments: [Array(repeating: UInt8(0xA7), count: 64), Array("not a FIT file at all, a log line\n".utf8)])
    func garbageAfterTheEnd(garbage: [UInt8]) throws {
        let bytes = try Data(contentsOf: TestData.url("fit/fitparse__garmin-fenix-5-run.fit"))
        let whole = try ActivityFileReader.read(bytes, file: "run.fit")
        let damaged = bytes + garbage
        let refusal = try #require(throws: ActivityFileError.self) {
            try ActivityFileReader.read(damaged, file: "run.fit")
        }
        #expect(refusal.readable?.bytes == bytes.count)
        let salvaged = try ActivityFileReader.salvage(damaged, file: "run.fit")
        #expect(salvaged.damage?.byteOffset == bytes.count)
        #expect(salvaged.activities == whole)
    }

    @Test("an undamaged file salvages to itself with no damage; garbage from the start is refused")
    func undamagedAndHopeless() throws {
        let bytes = try Data(contentsOf: TestData.url("fit/fitparse__garmin-fenix-5-walk.fit"))
        let salvaged = try ActivityFileReader.salvage(bytes, file: "walk.fit")
        let whole = try ActivityFileReader.read(bytes, file: "walk.fit")
        #expect(salvaged.damage == nil && salvaged.activities == whole)
        var hopeless = bytes.prefix(200)
        for index in 14..<hopeless.count { hopeless[index] = 0xEE }
        #expect(throws: ActivityFileError.self) { try ActivityFileReader.salvage(hopeless, file: "walk.fit") }
    }
}
