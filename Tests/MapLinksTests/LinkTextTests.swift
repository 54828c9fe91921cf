import Foundation
import MeridianCore
import Testing

@testable import MapLinkCore
@testable import MapLinks

@Suite("Map link text: coordinates and percent-encoding")
struct LinkTextTests {
    static let coordinateCases: [(latitude: Double, longitude: Double, text: String)] = [
        (0, 0, "0,0"),
        (-0.0, -0.0, "0,0"),
        (-0.0000001, 0.0000001, "0,0"),
        (-0.0000004, -0.0000004, "0,0"),
        (-0.0000006, 0.0000006, "-0.000001,0.000001"),
        (89.9999999, 179.9999999, "90,180"),
        (-89.9999999, -179.9999999, "-90,-180"),
        (90, 180, "90,180"),
        (-90, -180, "-90,-180"),
        (1e-5, -1e-5, "0.00001,-0.00001"),
        (1e-7, 1e-6, "0,0.000001"),
        (48.8583701, 2.2944813, "48.85837,2.294481"),
        (-33.8567844, 151.213108, "-33.856784,151.213108"),
        (12.5, -180, "12.5,-180"),
        (52.52, 13.405, "52.52,13.405")
    ]

    @Test("coordinates: latitude first, ≤ 6 decimals, trimmed, no exponent, no -0", arguments: coordinateCases)
    func coordinateText(latitude: Double, longitude: Double, text: String) throws {
        let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        #expect(LinkText.coordinate(coordinate) == text)
        #expect(!text.contains("e") && !text.contains("E"))
        #expect(!text.hasPrefix("-0,") && !text.hasSuffix(",-0"))
    }

    @Test(
        "NumberText.trimmed keeps the fixed POSIX format",
        arguments: [
            (0.0, "0"), (-0.0, "0"), (-0.0000001, "0"), (1e-5, "0.00001"), (1e-6, "0.000001"), (123.4560001, "123.456"),
            (-179.99999949, "-179.999999"), (0.1 + 0.2, "0.3")
        ])
    func trimmedNumbers(value: Double, text: String) {
        #expect(NumberText.trimmed(value, decimals: 6) == text)
    }

    @Test(
        "percent-encoding leaves only RFC 3986 unreserved characters literal",
        arguments: [
            ("Tour Eiffel", "Tour%20Eiffel"),
            ("A&B", "A%26B"),
            ("1+1", "1%2B1"),
            ("#1", "%231"),
            ("100%", "100%25"),
            ("a/b?c=d", "a%2Fb%3Fc%3Dd"),
            ("x,y", "x%2Cy"),
            ("Café", "Caf%C3%A9"),
            ("🥐", "%F0%9F%A5%90"),
            ("-._~AZaz09", "-._~AZaz09"),
            ("", "")
        ])
    func encoding(text: String, encoded: String) {
        #expect(PercentEncoding.encoded(text) == encoded)
        #expect(encoded.removingPercentEncoding == text)
    }

    @Test("every byte outside the unreserved set is encoded")
    func everyByte() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        for byte in UInt8(1)...UInt8(127) {
            let text = String(decoding: [byte], as: UTF8.self)
            let expected = unreserved.contains(byte) ? text : String(format: "%%%02X", byte)
            #expect(PercentEncoding.encoded(text) == expected, "byte \(byte)")
        }
    }
}
