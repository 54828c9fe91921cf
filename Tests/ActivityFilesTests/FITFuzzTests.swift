import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

/// Damaged FIT bytes of every kind either decode or throw an `ActivityFileError` with a sane
/// location: never a crash, a hang or another error.
@Suite("FIT: fuzzing with the shared files")
struct FITFuzzTests {
    static func files() throws -> [String] { try TestData.files(in: "fit", suffix: ".fit").map(\.lastPathComponent) }
    static func smallFiles() throws -> [String] {
        try TestData.files(in: "fit", suffix: ".fit").filter { url in
            ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? .max) <= 8192
        }.map(\.lastPathComponent)
    }

    /// Reads `bytes`; true when they decoded, false when refused with a located error.
    private func outcome(_ bytes: [UInt8], _ label: String) -> Bool {
        do {
            _ = try ActivityFileReader.read(Data(bytes), file: label)
            return true
        } catch {
            #expect(!error.message.isEmpty)
            #expect(error.file == label)
            if let offset = error.byteOffset { #expect(offset >= 0 && offset <= bytes.count, "\(error)") }
            return false
        }
    }

    @Test("every truncation of the small files", arguments: try smallFiles())
    func truncations(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: TestData.url("fit/\(name)")))
        #expect(bytes.count > 700)
        for length in 0..<bytes.count {
            let decoded = outcome(Array(bytes[0..<length]), "\(name)[..<\(length)]")
            // The one cut that is whole: the first of the two chained files in the corrupt-header file.
            #expect(!decoded || (name.contains("corruptheader") && length == 771), "length \(length) is refused")
        }
        #expect(outcome(bytes, name) || name.contains("corrupt") || name.contains("crc") || name.contains("eof"))
    }

    @Test("random byte flips, with and without the CRCs fixed up", arguments: try files())
    func byteFlips(name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: TestData.url("fit/\(name)")))
        var random = SeededRandom(seed: UInt64(bytes.count) &* 0x9E37_79B9 &+ 20_261_123)
        // Large files get fewer rounds with more flips each: every file gets thousands of flipped bytes.
        let rounds = min(300, max(20, 1_500_000 / bytes.count))
        let maxFlips = max(16, 4000 / rounds)
        var decoded = 0
        var flips = 0
        for round in 0..<rounds {
            var damaged = bytes
            let count = Int.random(in: 1...maxFlips, using: &random)
            for _ in 0..<count {
                // Half the flips land in the first 2 KiB, where the definitions are.
                let range = round % 4 < 2 ? 0..<min(2048, bytes.count) : 0..<bytes.count
                damaged[Int.random(in: range, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            flips += count
            // With the CRCs recomputed the damage reaches the record decoder instead of the CRC check.
            if round % 2 == 0 { damaged = FITWriter.fixingCRC(damaged) }
            if outcome(damaged, "\(name)#\(round)") { decoded += 1 }
        }
        #expect(flips > 1000)
        #expect(decoded < rounds)
    }
}
