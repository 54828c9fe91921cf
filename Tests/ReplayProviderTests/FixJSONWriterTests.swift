import Foundation
import MeridianCore
import MeridianTesting
import Testing

@Suite("FixJSONWriter produces MeridianJSON's text")
struct FixJSONWriterTests {
    func expectSame(_ fix: Fix, includeProvider: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        // JSONEncoder orders keys unpredictably (no .sortedKeys), so compare each key's exact value text.
        let expected = try MeridianJSON.string(FixRecord(fix, includeProvider: includeProvider))
        let written = FixJSONWriter.string(fix, includeProvider: includeProvider)
        #expect(
            Self.members(written) == Self.members(expected), "\(written) vs \(expected)", sourceLocation: sourceLocation
        )
        #expect(Self.members(written).count > 1, sourceLocation: sourceLocation)
    }

    /// The raw text of each member of a flat JSON object (values are numbers or strings).
    static func members(_ json: String) -> [String: String] {
        let bytes = Array(json.utf8)
        var result: [String: String] = [:]
        var index = 1
        func scanString() -> String {
            let start = index
            index += 1
            while bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            index += 1
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        while index < bytes.count - 1 {
            let key = scanString()
            index += 1  // colon
            let value: String
            if bytes[index] == UInt8(ascii: "\"") {
                value = scanString()
            } else {
                let start = index
                while bytes[index] != UInt8(ascii: ",") && bytes[index] != UInt8(ascii: "}") { index += 1 }
                value = String(decoding: bytes[start..<index], as: UTF8.self)
            }
            result[key] = value
            index += 1  // comma or closing brace
        }
        return result
    }

    @Test func edgeValues() throws {
        let time = try #require(ISO8601.date(from: "2024-05-01T07:30:12.250Z"))
        try expectSame(Fix(time: time, coordinate: nil, mode: .noFix, providerID: "a"))
        try expectSame(
            Fix(
                time: time, coordinate: try Coordinate(latitude: -33.679553333, longitude: 1e-05),
                altitudeHAE: -11.5, altitudeMSL: 100, speed: 0.00001, course: 359.99999,
                horizontalAccuracy: 1e-7, verticalAccuracy: 123456789012.5, mode: .threeD,
                quality: .rtkFixed, satellitesUsed: 0, providerID: "quote\"back\\slash/\n\u{1}é"),
            includeProvider: true)
        try expectSame(
            Fix(
                time: Date(timeIntervalSince1970: -1.5), coordinate: try Coordinate(latitude: -90, longitude: 180),
                speed: 0, mode: .twoD, providerID: "x"), includeProvider: true)
        try expectSame(
            Fix(
                time: time, coordinate: try Coordinate(latitude: 0, longitude: -0.0), altitudeHAE: 1e22,
                horizontalAccuracy: 55, mode: .twoD, providerID: "x"), includeProvider: true)
    }

    @Test func seededRandomFixes() throws {
        var random = SeededRandom(seed: 42)
        for index in 0..<2000 {
            func maybe(_ value: Double) -> Double? { Bool.random(using: &random) ? value : nil }
            let hasPosition = Bool.random(using: &random)
            let coordinate =
                hasPosition
                ? try Coordinate(
                    latitude: Double.random(in: -90...90, using: &random),
                    longitude: Double.random(in: -180...180, using: &random))
                : nil
            let fix = Fix(
                time: Date(timeIntervalSince1970: Double.random(in: 0...4_000_000_000, using: &random)),
                coordinate: coordinate,
                altitudeHAE: maybe(Double.random(in: -500...9000, using: &random)),
                altitudeMSL: maybe((Double.random(in: -500...9000, using: &random) * 10).rounded() / 10),
                speed: maybe(Double.random(in: 0...0.001, using: &random)),
                course: maybe(Double.random(in: 0..<360, using: &random)),
                horizontalAccuracy: maybe(Double(Int.random(in: 0...100, using: &random))),
                verticalAccuracy: maybe(Double.random(in: 0...1e-3, using: &random)),
                mode: hasPosition ? (Bool.random(using: &random) ? .twoD : .threeD) : .noFix,
                quality: Bool.random(using: &random) ? FixQuality.allCases.randomElement(using: &random) : nil,
                satellitesUsed: Bool.random(using: &random) ? Int.random(in: 0...64, using: &random) : nil,
                providerID: "p\(index)")
            try expectSame(fix, includeProvider: index.isMultiple(of: 2))
        }
    }

    /// The time is written as bytes by `ISO8601.write`, which `MeridianJSON` also uses through `ISO8601.string`:
    /// check it against Foundation's Gregorian calendar instead (from 1600 on, where Foundation is proleptic).
    @Test func timesMatchTheGregorianCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var random = SeededRandom(seed: 1600)
        let first = Int64(ISO8601.daysSinceEpoch(year: 1600, month: 1, day: 1)) * 86_400_000
        let last = Int64(ISO8601.daysSinceEpoch(year: 10_000, month: 1, day: 1)) * 86_400_000 - 1
        for _ in 0..<5000 {
            let milliseconds = Int64.random(in: first...last, using: &random)
            let time = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0,
                parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0,
                Int((milliseconds % 1000 + 1000) % 1000))
            let written = FixJSONWriter.string(Fix(time: time, coordinate: nil, mode: .noFix, providerID: "t"))
            #expect(Self.members(written)["\"time\""] == "\"\(expected)\"")
        }
    }

    @Test func yearsBeforeZeroAndOutOfRangeTimes() throws {
        func time(year: Int) -> String {
            let date = Date(
                timeIntervalSince1970: Double(ISO8601.daysSinceEpoch(year: year, month: 3, day: 4)) * 86_400 + 0.5)
            return Self.members(FixJSONWriter.string(Fix(time: date, coordinate: nil, mode: .noFix, providerID: "t")))[
                "\"time\""] ?? ""
        }
        // The year is left-padded to four characters with its sign, as it always was.
        #expect(time(year: -5) == #""00-5-03-04T00:00:00.500Z""#)
        #expect(time(year: -123) == #""-123-03-04T00:00:00.500Z""#)
        #expect(time(year: -4567) == #""-4567-03-04T00:00:00.500Z""#)
        #expect(time(year: 7) == #""0007-03-04T00:00:00.500Z""#)
        let far = FixJSONWriter.string(
            Fix(time: Date(timeIntervalSince1970: 1e15), coordinate: nil, mode: .noFix, providerID: "t"))
        #expect(Self.members(far)["\"time\""] == #""invalid-date""#)
    }

    /// Short decimals take their own path in the writer; they must print as `Double.description` does.
    @Test func shortDecimalsAndTheirEdges() throws {
        var random = SeededRandom(seed: 15)
        var values: [Double] = [
            0, -0.0, 0.0001, 0.00009999, 0.000123456789, 999_999.999999999, 1_000_000, 1e15, 123.4,
            461.90000000000003, 0.1 + 0.2, 1e-9, 5e-324, 9_007_199_254_740_992, -17.25, 359.9
        ]
        for _ in 0..<20_000 {
            let decimals = Int.random(in: 0...12, using: &random)
            let divisor = [Int64(1), 1000, 1_000_000_000][Int.random(in: 0...2, using: &random)]
            let mantissa = Double(Int64.random(in: 0...999_999_999_999_999, using: &random) / divisor)
            values.append((Bool.random(using: &random) ? 1 : -1) * mantissa / pow(10, Double(decimals)))
        }
        let time = try #require(ISO8601.date(from: "2024-05-01T07:30:12.250Z"))
        for chunk in stride(from: 0, to: values.count, by: 4) {
            let v = Array(values[chunk..<min(chunk + 4, values.count)]) + [0, 0, 0]
            try expectSame(
                Fix(
                    time: time, coordinate: nil, altitudeHAE: v[0], altitudeMSL: v[1], speed: v[2], course: v[3],
                    mode: .noFix, providerID: "s"))
        }
    }
}
