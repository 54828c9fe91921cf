import Foundation
import MeridianTesting
import Testing

@testable import PhoneFeedProvider

/// Our QR codes, read back by a decoder we did not write: ZBar's `zbarimg` (Debian zbar-tools, scripts/bootstrap).
@Suite struct QRCodeTests {
    /// What `zbarimg` reads from a picture of `dark` (a square matrix, quiet zone added here).
    func decode(_ dark: [[Bool]]) async throws -> String {
        let zbarimg = "/usr/bin/zbarimg"
        try #require(
            FileManager.default.isExecutableFile(atPath: zbarimg),
            "zbarimg is missing: run scripts/bootstrap (zbar-tools)")
        let scale = 4, quiet = QRCode.quietZone, side = (dark.count + 2 * quiet) * scale
        var pbm = "P1\n\(side) \(side)\n"
        for y in 0..<side {
            let row = (0..<side).map { x -> String in
                let (mx, my) = (x / scale - quiet, y / scale - quiet)
                return dark.indices.contains(my) && dark.indices.contains(mx) && dark[my][mx] ? "1" : "0"
            }
            pbm += row.joined(separator: " ") + "\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try Data(pbm.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await ProgramRun.run(zbarimg, ["--quiet", "--raw", "-Sbinary", file.path]).stdout
    }

    func matrix(_ code: QRCode) -> [[Bool]] {
        (0..<code.size).map { y in (0..<code.size).map { x in code.isDark(x: x, y: y) } }
    }

    @Test(
        "byte payloads from version 1 to version 40 decode to what was encoded",
        arguments: [
            "HELLO",
            "owntracks:///config?inline=" + String(repeating: "eyJfdHlwZSI6ImNvbmZpZ3VyYXRpb24ifQ%3D%3D", count: 9),
            "Zoë's 📱 " + String(repeating: "0123456789abcdef", count: 60),
            String(repeating: "Meridian/", count: 259)
        ])
    func decodes(payload: String) async throws {
        let code = try #require(QRCode(bytes: Array(payload.utf8)))
        #expect(try await decode(matrix(code)) == payload, "version \((code.size - 17) / 4)")
    }

    @Test("more than version 40 holds is refused")
    func tooLong() {
        #expect(QRCode(bytes: Array(repeating: 0x41, count: 2331)) != nil)
        #expect(QRCode(bytes: Array(repeating: 0x41, count: 2332)) == nil)
    }

    @Test("the SVG and the terminal's half blocks draw the same modules, and those decode")
    func renderings() async throws {
        let link = OwnTracksSetup.link(
            url: "https://meridian.example.net/v1/feeds/owntracks", name: "Zoë's 📱",
            key: String(repeating: "k", count: 43))
        let code = try #require(QRCode(bytes: Array(link.utf8)))
        let quiet = QRCode.quietZone

        // SVG: one "M x y h1v1h-1z" square per dark module, offset by the quiet zone.
        let svg = code.svg()
        var fromSVG = Array(repeating: Array(repeating: false, count: code.size), count: code.size)
        let path = try #require(svg.split(separator: "d=\"").last?.split(separator: "\"").first)
        for square in path.split(separator: "z") {
            let numbers =
                square.dropFirst().split(separator: "h").first?.split(separator: " ").compactMap { Int($0) } ?? []
            try #require(numbers.count == 2, "\(square)")
            fromSVG[numbers[1] - quiet][numbers[0] - quiet] = true
        }
        #expect(fromSVG == matrix(code))
        #expect(try await decode(fromSVG) == link)

        // Terminal: light modules are drawn (█ both, ▀ upper, ▄ lower), dark ones are the background.
        let lines = code.terminalLines()
        #expect(
            lines.count == (code.size + 2 * quiet + 1) / 2 && lines.allSatisfy { $0.count == code.size + 2 * quiet })
        var fromTerminal = Array(repeating: Array(repeating: false, count: code.size), count: code.size)
        for (row, line) in lines.enumerated() {
            for (column, character) in line.enumerated() {
                let (upperLight, lowerLight) = (
                    character == "█" || character == "▀", character == "█" || character == "▄"
                )
                for (y, light) in [(row * 2 - quiet, upperLight), (row * 2 + 1 - quiet, lowerLight)]
                where fromTerminal.indices.contains(y) && fromTerminal.indices.contains(column - quiet) {
                    fromTerminal[y][column - quiet] = !light
                }
            }
        }
        #expect(fromTerminal == matrix(code))
    }

    @Test("the OwnTracks link carries HTTP mode, the feed URL, the device name as user and the key as password")
    func ownTracksLink() throws {
        let link = OwnTracksSetup.link(url: "http://127.0.0.1:8080/v1/feeds/owntracks", name: "Zoë", key: "s3cr3t+/=")
        let inline = try #require(link.split(separator: "inline=").last?.removingPercentEncoding)
        let data = try #require(Data(base64Encoded: inline))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            json["_type"] as? String == "configuration" && json["mode"] as? Int == 3 && json["auth"] as? Bool == true)
        #expect(json["url"] as? String == "http://127.0.0.1:8080/v1/feeds/owntracks")
        #expect(json["username"] as? String == "Zoë" && json["password"] as? String == "s3cr3t+/=")
        #expect(json["cmd"] as? Bool == true && json["remoteConfiguration"] as? Bool == true)
        #expect(!link.dropFirst("owntracks:///config?inline=".count).contains { "+/=".contains($0) })
    }
}
