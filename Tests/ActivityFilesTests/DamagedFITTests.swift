import ActivityFiles
import Foundation
import MeridianCore
import MeridianTesting
import Testing

@Suite("FIT: damaged files are refused with what and where")
struct DamagedFITTests {
    private func refusal(reading name: String) -> ActivityFileError? {
        do {
            _ = try ActivityFileReader.read(contentsOf: TestData.url("fit/\(name)"))
            return nil
        } catch {
            return error
        }
    }

    @Test func fileCRCMismatch() throws {
        let error = try #require(refusal(reading: "fitparse__activity-filecrc.fit"))
        // fitparse: "CRC Mismatch [computed: 0xA1D5, read: 0xB1D5]"; the CRC is stored after 12 + 757 bytes.
        #expect(error.byteOffset == 769)
        #expect(error.message.contains("file CRC mismatch (computed 0xA1D5, stored 0xB1D5)"))
        #expect(
            error.description.hasSuffix(
                "fitparse__activity-filecrc.fit: byte 769: file CRC mismatch (computed 0xA1D5, stored 0xB1D5); the file is damaged, export it again; the first 769 of 771 bytes (99.7 %, 14 records) are readable and can be salvaged"
            ))
    }

    @Test func corruptHeaderOfTheSecondChainedFile() throws {
        // A valid 771-byte file followed by a second header whose signature reads ".GIT".
        let error = try #require(refusal(reading: "fitparse__activity-settings-corruptheader.fit"))
        #expect(error.byteOffset == 779)
        #expect(error.message.contains("bad FIT header: the signature is '.GIT', not '.FIT'"))
    }

    @Test func truncatedRecord() throws {
        // The header declares 757 data bytes; the file stops 1 byte short of them, inside the last record.
        let error = try #require(refusal(reading: "fitparse__activity-unexpected-eof.fit"))
        // The last record, the activity message of local type 5, starts at byte 751 and needs 18 bytes.
        #expect(error.byteOffset == 751)
        #expect(
            error.message
                == "unexpected end of file at byte 768 while reading a record of local type 5; the file is cut short, copy or export it again"
        )
    }

    @Test func everyOtherByteCountOfTheFileIsRefusedToo() throws {
        let bytes = try Data(contentsOf: TestData.url("fit/fitparse__Activity.fit"))
        for length in 0..<bytes.count {
            #expect(throws: ActivityFileError.self, "length \(length)") {
                _ = try ActivityFileReader.read(bytes.prefix(length), file: "cut.fit")
            }
        }
        #expect(try ActivityFileReader.read(bytes, file: "whole.fit").count == 1)
    }
}
