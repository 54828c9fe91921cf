import Foundation
import MeridianCore
import MeridianTesting
import Testing

@testable import ActivityFiles

/// Uploads made to hurt: decompression bombs, documents too big or too deep, entities; and a genuinely long GPX.
/// The big inputs are made here from a small gzip member repeated (`cat a.gz a.gz …` is one gzip stream). The
/// tests of seconds run on a thread of their own, never holding one of the few cooperative threads other tests need.
@Suite("hostile and huge XML and gzip")
struct HostileXMLTests {
    /// `work`'s result, computed on a thread of its own.
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingWork.onOwnThread { Result { try work() } }.get()
    }

    /// The error `read` throws, if any.
    private static func error(_ read: () throws -> [RecordedActivity]) -> ActivityFileError? {
        do {
            _ = try read()
            return nil
        } catch {
            return error as? ActivityFileError
        }
    }

    /// One gzip stream of `head`, `count` × 16 MiB of `filler`, then `tail`.
    private static func bomb(head: String = "", filler: UInt8, count: Int, tail: String = "") throws -> Data {
        var stream = head.isEmpty ? Data() : try GeneratedFiles.gzip(Data(head.utf8))
        let member = try GeneratedFiles.gzip(Data(repeating: filler, count: 16 << 20), level: 1)
        for _ in 0..<count { stream.append(member) }
        if !tail.isEmpty { stream.append(try GeneratedFiles.gzip(Data(tail.utf8))) }
        return stream
    }

    @Test("a gzip bomb of zeros (2 GiB) is refused from its first 64 KiB: no receiver sentence in it")
    func zerosBomb() async throws {
        let bomb = try Self.bomb(filler: 0, count: 128)
        let error = try await Self.offPool { Self.error { try ActivityFileReader.read(bomb, file: "zeros.gpx.gz") } }
        // Before: read as a receiver log (noise before a first sentence), so 64 MiB were decompressed into memory
        // (and, earlier still, all of the 1 GiB then allowed) before the refusal.
        #expect(
            error?.description.hasPrefix(
                "zeros.gpx.gz: byte 0: not a FIT, TCX or GPX file (it starts with 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00)"
            ) == true, "\(String(describing: error))")
        // Noise before the first sentence is still a receiver log, decompressed (at most 64 MiB) and read.
        let noisy = try Self.bomb(head: "\u{1}\u{2}garbage\n$GPGGA", filler: 0, count: 5)
        #expect { try ActivityFileReader.read(noisy, file: "noisy.nmea.gz") } throws: { error in
            (error as? ActivityFileError)?.message
                == "decompresses to more than 64 MiB; refused as a possible zip bomb (decompress it yourself if it is genuine)"
        }
        let padded = try Self.bomb(head: "<gpx version=\"1.1\">", filler: 0, count: 1)
        #expect { try ActivityFileReader.read(padded, file: "zeros.gpx.gz") } throws: { error in
            (error as? ActivityFileError)?.message
                == "malformed XML (a character XML does not allow); the file is damaged, fix or export it again"
        }
    }

    @Test("a GPX whose root holds 288 MiB of blank space is read as it decompresses and refused at the cap")
    func whitespaceBomb() async throws {
        let bomb = try Self.bomb(
            head: "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"x\">", filler: UInt8(ascii: " "),
            count: 18, tail: "</gpx>\n")
        let error = try await Self.offPool { Self.error { try ActivityFileReader.read(bomb, file: "blank.gpx.gz") } }
        // Before: all of it decompressed into memory, then handed to the parser whole ("XML parser error 1").
        #expect(
            error?.description
                == "blank.gpx.gz: decompresses to more than 256 MiB; refused as a possible zip bomb (decompress it yourself if it is genuine)"
        )
    }

    @Test("elements nested 20,000 deep are refused at depth 64 with the line")
    func deepNesting() throws {
        let depth = 20_000
        let text =
            "<gpx version=\"1.1\">\n" + String(repeating: "<a>\n", count: depth)
            + String(repeating: "</a>", count: depth) + "</gpx>"
        let (activity, error) = GPXReader.read(Data(text.utf8), file: "deep.gpx")
        #expect(activity.samples.isEmpty)
        #expect(
            error?.description
                == "deep.gpx:65: elements nested more than 64 deep (GPX and TCX files nest about 8); the file is not an activity export"
        )
        let tcx = "<TrainingCenterDatabase>" + String(repeating: "<Activities>", count: depth)
        #expect { try ActivityFileReader.read(Data(tcx.utf8), file: "deep.tcx") } throws: { error in
            (error as? ActivityFileError)?.message.hasPrefix("elements nested more than 64 deep") == true
        }
    }

    /// Counts the track points the XML reader walks through.
    private final class PointCounter: XMLDocumentReader {
        var points = 0
        override func open(_ name: String, attributes: [String: String]) { if name == "trkpt" { points += 1 } }
        override func wantsText() -> Bool { false }
    }

    @Test("a GPX of 1,000,000 points (75 MB, 11.6 days at 1 Hz) goes through the XML reader whole")
    func millionPoints() async throws {
        let (size, error, points) = try await Self.offPool {
            let document = GeneratedFiles.longGPX(points: 1_000_000)
            let counter = PointCounter(file: "long.gpx")
            let error = counter.parse(.bytes(document))
            return (document.count, error, counter.points)
        }
        #expect(size > 70_000_000)
        // Before: "malformed XML (XML parser error 1)": libxml2's 10 MB look-ahead limit, passed by a document
        // handed over whole.
        #expect(error == nil)
        #expect(points == 1_000_000)
    }

    @Test("a file of more samples than ActivityFileReader.maximumSamples is refused, naming the file and the limit")
    func tooManySamples() async throws {
        // 1,000,001 points of 75 bytes: 75 MB of GPX in about 2 MB of gzip. Before: read whole, about 430 B a
        // sample held (the 3.5 M points of 9.5 MB gzip reached 1.5 GB).
        let error = try await Self.offPool {
            let upload = try GeneratedFiles.gzip(
                GeneratedFiles.longGPX(points: ActivityFileReader.maximumSamples + 1), level: 1)
            return Self.error { try ActivityFileReader.read(upload, file: "endless.gpx.gz") }
        }
        let message = try #require(error).description
        #expect(message.hasPrefix("endless.gpx.gz"), "\(message)")
        #expect(message.contains("more than 1,000,000 samples"), "\(message)")
    }

    @Test("a plain GPX file is read from disk as a stream, as it reads from memory")
    func plainFileStreams() async throws {
        let directory = try TestData.temporaryDirectory("stream")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("long.gpx")
        try GeneratedFiles.longGPX(points: 200_000).write(to: url)
        let activities = try await Self.offPool { try ActivityFileReader.read(contentsOf: url) }
        #expect(activities.first?.samples.count == 200_000)
        #expect(activities.first?.samples.last?.time == GeneratedFiles.longGPXStart.addingTimeInterval(199_999))
    }

    @Test("a FIT file or log bigger than maximumBufferedSize is refused before it is read into memory")
    func bufferedFileTooBig() throws {
        let directory = try TestData.temporaryDirectory("buffered")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("huge.nmea")
        let line = Data("$GPRMC,070000,A,4807.038,N,01131.000,E,000.0,000.0,010524,,*00\r\n".utf8)
        FileManager.default.createFile(atPath: url.path, contents: line)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(ActivityFileReader.maximumBufferedSize) + 1)
        try handle.close()
        let message = try #require(Self.error { try ActivityFileReader.read(contentsOf: url) }).description
        #expect(message.contains("is 64 MiB"), "\(message)")
        #expect(message.contains("at most 64 MiB"), "\(message)")
    }

    @Test("a GPX of 200,000 points (15 MB, over libxml2's 10 MB look-ahead) is read whole")
    func longActivity() async throws {
        let activities = try await Self.offPool {
            try ActivityFileReader.read(GeneratedFiles.longGPX(points: 200_000), file: "long.gpx")
        }
        #expect(activities.first?.samples.count == 200_000)
        #expect(activities.first?.samples.last?.time == GeneratedFiles.longGPXStart.addingTimeInterval(199_999))
    }

    @Test("only XML's own entities exist: &amp; is read, a DTD's entities are neither loaded nor expanded")
    func entities() throws {
        let plain = "<gpx version=\"1.1\" creator=\"A &amp; B &#38; C\"></gpx>"
        #expect(GPXReader.read(Data(plain.utf8), file: "a.gpx").activity.device == "A & B & C")
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
            <gpx version="1.1" creator="&secret;"></gpx>
            """
        let (activity, error) = GPXReader.read(Data(external.utf8), file: "xxe.gpx")
        #expect(activity.device == nil)
        #expect(
            error?.description
                == "xxe.gpx:3: malformed XML (an undeclared entity); the file is damaged, fix or export it again")
    }

    @Test("reading stops with an error once isCancelled says so")
    func cancelled() throws {
        let text =
            "<gpx version=\"1.1\"><trk><trkseg>"
            + String(repeating: "<trkpt lat=\"1\" lon=\"1\"><time>2024-05-01T07:00:00Z</time></trkpt>", count: 10_000)
        var asked = 0
        #expect {
            try ActivityFileReader.read(
                Data(text.utf8), file: "c.gpx",
                isCancelled: {
                    asked += 1
                    return asked > 2
                })
        } throws: { error in
            (error as? ActivityFileError)?.message.hasPrefix("reading stopped: the import was cancelled") == true
        }
    }
}
