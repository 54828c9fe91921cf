import ActivityFiles
import Foundation
import MeridianCore
import Testing

/// FIT features the shared files do not all show, in files written by `FITWriter`.
@Suite("FIT: crafted files")
struct CraftedFITTests {
    static let start = FITWriter.time("2024-05-01T07:00:00Z")

    private func read(_ bytes: [UInt8]) throws -> [RecordedActivity] {
        try ActivityFileReader.read(Data(bytes), file: "crafted.fit")
    }

    /// A record definition: timestamp, lat, lon, heart rate, cadence, enhanced altitude, speed.
    private static let recordFields: [FITWriter.Field] = [
        .uint32(253), .sint32(0), .sint32(1), .uint8(3), .uint8(4), .uint32(78), .uint16(6)
    ]

    private func writeRecords(bigEndian: Bool) -> [UInt8] {
        var writer = FITWriter()
        writer.define(local: 0, global: 0, bigEndian: bigEndian, [.enumeration(0), .uint16(1), .uint16(2)])
        writer.data(local: 0, [4, 1, 1124])
        writer.define(local: 3, global: 20, bigEndian: bigEndian, Self.recordFields)
        // 48° and 11.5° in semicircles; altitude 520 m = (520 + 500) × 5; speed 3.25 m/s.
        writer.data(local: 3, [Self.start, 572_662_306, 137_196_956, 150, 85, 5100, 3250])
        writer.data(local: 3, [Self.start + 1, 572_662_400, 137_197_000, nil, nil, nil, nil])
        return writer.file()
    }

    @Test func bigEndianDefinitionsDecodeLikeLittleEndianOnes() throws {
        let little = try read(writeRecords(bigEndian: false))
        let big = try read(writeRecords(bigEndian: true))
        #expect(little == big)
        let activity = try #require(big.first)
        #expect(activity.device == "garmin fr110")
        #expect(activity.totals == nil, "no session message")
        let first = try #require(activity.samples.first)
        #expect(ISO8601.string(from: first.time) == "2024-05-01T07:00:00.000Z")
        #expect(first.coordinate?.latitude == 572_662_306 * 180 / 2_147_483_648.0)
        #expect(first.coordinate?.longitude == 137_196_956 * 180 / 2_147_483_648.0)
        #expect(first.heartRate == 150)
        #expect(first.cadence == 85, "no sport: cadence as stored")
        #expect(first.altitude == 520)
        #expect(first.speed == 3.25)
        // Invalid values (0xFF, 0xFFFF, 0xFFFFFFFF) are absent.
        let second = activity.samples[1]
        #expect(second.heartRate == nil && second.cadence == nil && second.altitude == nil && second.speed == nil)
    }

    @Test func compressedTimestampsRollOverAgainstTheLastFullTimestamp() throws {
        var writer = FITWriter()
        writer.define(local: 0, global: 20, [.uint32(253), .uint8(3)])
        let base = (Self.start & ~0x1F) + 30  // low five bits 30
        writer.data(local: 0, [base, 100])
        writer.define(local: 1, global: 20, [.uint8(3)])
        writer.data(local: 1, [101], compressedTimeOffset: 31)  // +1
        writer.data(local: 1, [102], compressedTimeOffset: 2)  // rolls over: +4
        writer.data(local: 1, [103], compressedTimeOffset: 2)  // same second again
        writer.data(local: 1, [104], compressedTimeOffset: 1)  // rolls over: +31 from the last
        let samples = try #require(try read(writer.file()).first).samples
        let origin = samples[0].time
        #expect(samples.map { $0.time.timeIntervalSince(origin) } == [0, 1, 4, 4, 35])
        #expect(samples.map(\.heartRate) == [100, 101, 102, 103, 104])
    }

    @Test func developerFieldsUnknownMessagesAndArraysAreSkippedBySize() throws {
        var writer = FITWriter()
        writer.define(local: 2, global: 65_280, [.bytes(0, 7), .uint16(1)])  // a manufacturer's own message
        writer.data(local: 2, [1, 2])
        writer.define(
            local: 0, global: 20, [.uint32(253), .bytes(200, 5), .array(3, count: 2), .uint8(4)],
            developerFieldSizes: [3, 4])
        writer.data(local: 0, [Self.start, 7, 140, 90])
        // 3 bytes of uint16: not whole
        writer.define(local: 1, global: 20, [.uint32(253), FITWriter.Field(number: 3, size: 3, baseType: 0x84)])
        writer.data(local: 1, [Self.start + 1, 150])
        let activity = try #require(try read(writer.file()).first)
        #expect(activity.samples.count == 2)
        #expect(activity.samples[0].heartRate == 140, "an array field gives its first element")
        #expect(activity.samples[0].cadence == 90)
        #expect(activity.samples[1].heartRate == nil, "a size that is not a whole number of elements is no value")
    }

    /// A file of one record at 80 strides a minute, a session with `sport` and `sub_sport`, or only a `sport` message.
    private func indoor(sport: Int64, subSport: Int64, inSession: Bool) throws -> RecordedActivity {
        var writer = FITWriter()
        writer.define(local: 1, global: 20, [.uint32(253), .uint8(4)])
        writer.data(local: 1, [Self.start, 80])
        if inSession {
            writer.define(
                local: 0, global: 18, [.uint32(253), .uint32(2), .enumeration(5), .enumeration(6), .uint32(8)])
            writer.data(local: 0, [Self.start + 60, Self.start, sport, subSport, 60_000])
        } else {
            writer.define(local: 0, global: 12, [.enumeration(0), .enumeration(1)])
            writer.data(local: 0, [sport, subSport])
        }
        return try #require(try read(writer.file()).first)
    }

    @Test("sub_sport tells a machine's sport: a treadmill session is a run (its cadence in steps), a spin bike a ride")
    func subSport() throws {
        // Before: fitness_equipment was "other" whatever its sub_sport, so a treadmill run was no run.
        let treadmill = try indoor(sport: 4, subSport: 1, inSession: true)
        #expect(treadmill.sport == .run && treadmill.sportName == "fitness_equipment")
        #expect(treadmill.samples.map(\.cadence) == [160], "strides doubled into steps, as for a run")
        #expect(try indoor(sport: 4, subSport: 6, inSession: true).sport == .ride)
        #expect(try indoor(sport: 0, subSport: 45, inSession: false).sport == .run, "generic + indoor_running")
        #expect(try indoor(sport: 4, subSport: 27, inSession: false).sport == .walk)
        // The shared vivoactive HR file is fitness_equipment + indoor_rowing: still other.
        #expect(try indoor(sport: 4, subSport: 14, inSession: true).sport == .other)
        #expect(try indoor(sport: 0, subSport: 0, inSession: true).sport == nil, "generic: the speeds decide")
    }

    @Test func severalSessionsGiveOneActivityEach() throws {
        var writer = FITWriter()
        writer.define(
            local: 0, global: 18,
            [.uint32(253), .uint32(2), .enumeration(5), .uint32(7), .uint32(8), .uint32(9), .uint8(18)])
        writer.define(local: 1, global: 20, [.uint32(253), .uint8(3), .uint8(4)])
        writer.define(local: 2, global: 21, [.uint32(253), .enumeration(0), .enumeration(1)])
        writer.define(local: 3, global: 19, [.uint32(253), .uint32(2), .uint32(8), .uint32(9)])
        writer.data(local: 2, [Self.start, 0, 0])  // timer start
        writer.data(local: 1, [Self.start, 150, 80])
        writer.data(local: 2, [Self.start + 60, 0, 4])  // stop_all
        writer.data(local: 2, [Self.start + 70, 0, 0])  // start
        writer.data(local: 1, [Self.start + 90, 151, 81])
        writer.data(local: 3, [Self.start + 100, Self.start, 90_000, 25_000])
        writer.data(local: 1, [Self.start + 150, 152, 82])
        writer.data(local: 3, [Self.start + 200, Self.start + 100, 100_000, 300_000])
        // Sessions are written at the end, the ride first: order in the file does not matter.
        writer.data(local: 0, [Self.start + 200, Self.start + 100, 2, 100_000, 100_000, 300_000, 85])
        writer.data(local: 0, [Self.start + 100, Self.start, 1, 100_000, 90_000, 25_000, 80])
        let activities = try read(writer.file())
        #expect(activities.count == 2)
        let run = activities[0], ride = activities[1]
        #expect(run.sport == .run && run.sportName == "running")
        #expect(ride.sport == .ride && ride.sportName == "cycling")
        #expect(run.samples.map(\.heartRate) == [150, 151])
        #expect(run.samples.map(\.cadence) == [160, 162], "running cadence in steps per minute")
        #expect(ride.samples.map(\.cadence) == [82])
        #expect(run.totals == DeviceTotals(distance: 250, timerTime: 90, elapsedTime: 100, averageCadence: 160))
        #expect(ride.totals?.averageCadence == 85)
        #expect(run.laps.map(\.distance) == [250])
        #expect(ride.laps.map(\.distance) == [3000])
        #expect(run.pauses.map(\.duration) == [10])
        #expect(ride.pauses.isEmpty)
        #expect(ride.startTime.map(ISO8601.string(from:)) == "2024-05-01T07:01:40.000Z")
    }

    @Test func chainedFilesAreReadOneAfterTheOther() throws {
        let first = writeRecords(bigEndian: false)
        var writer = FITWriter()
        writer.define(local: 0, global: 20, [.uint32(253), .uint8(3)])
        writer.data(local: 0, [Self.start + 3600, 120])
        let activities = try read(first + writer.file(headerSize: 12))
        #expect(activities.count == 2)
        #expect(activities[0].samples.count == 2)
        #expect(activities[1].samples.map(\.heartRate) == [120])
        #expect(activities[1].device == nil, "the second file has no file_id")
    }

    @Test func clockNotSetIsAnchoredToTheActivityLocalTime() throws {
        var writer = FITWriter()
        writer.define(local: 0, global: 20, [.uint32(253), .uint8(3)])
        writer.data(local: 0, [1000, 120])
        writer.define(local: 1, global: 34, [.uint32(253), .uint32(5)])
        writer.data(local: 1, [1100, Self.start + 100])
        let activity = try #require(try read(writer.file()).first)
        #expect(activity.samples.first?.time == Date(timeIntervalSince1970: 631_065_600 + Double(Self.start)))
        #expect(activity.warnings.count == 1)
    }

    @Test func damageIsLocated() throws {
        var undefined = FITWriter()
        undefined.raw([0x05, 1, 2, 3])
        #expect { try read(undefined.file()) } throws: { error in
            let error = error as? ActivityFileError
            return error?.byteOffset == 14
                && error?.message.contains("local type 5, which no definition message introduced") == true
        }
        var header = writeRecords(bigEndian: false)
        header[12] ^= 0xFF
        #expect { try read(header) } throws: { error in
            (error as? ActivityFileError)?.message.contains("header CRC mismatch") == true
        }
        var architecture = FITWriter()
        architecture.define(local: 0, global: 20, [.uint8(3)])
        var bytes = architecture.file()
        bytes[16] = 7
        #expect { try read(FITWriter.fixingCRC(bytes)) } throws: { error in
            let error = error as? ActivityFileError
            return error?.byteOffset == 16 && error?.message.contains("architecture byte 7") == true
        }
        var past = FITWriter()
        past.define(local: 0, global: 20, [.uint32(253), .uint8(3)])
        past.raw([0x00, 1, 2])  // a data message that needs 5 bytes, 3 before the declared end
        #expect { try read(past.file()) } throws: { error in
            (error as? ActivityFileError)?.message.contains("runs past the end of the data the header declares") == true
        }
        #expect(
            try read(FITWriter().file(headerSize: 14, headerCRC: false)).first?.samples.isEmpty == true,
            "an empty file with a zero header CRC is valid")
    }
}

extension FITWriter.Field {
    /// An array of `count` uint8.
    static func array(_ number: UInt8, count: UInt8) -> FITWriter.Field {
        .init(number: number, size: count, baseType: 0x02)
    }
}
