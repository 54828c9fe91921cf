import Foundation
import Testing

@testable import MeridianCore

@Suite("Formatting")
struct FormattingTests {
    @Test(
        "metric distances choose the unit after rounding",
        arguments: [
            (0.0, "0 m"), (0.4, "0 m"), (12.5, "13 m"), (999.4, "999 m"), (999.5, "1.0 km"), (999.96, "1.0 km"),
            (1000, "1.0 km"), (1049.9, "1.0 km"), (1050, "1.1 km"), (12_345, "12.3 km"), (99_949, "99.9 km"),
            (99_950, "100 km"), (100_499, "100 km"), (123_456, "123 km"), (-5, "0 m"), (-0.0, "0 m")
        ] as [(Double, String)])
    func metricDistance(metres: Double, expected: String) {
        #expect(DistanceFormat.string(metres: metres, units: .metric) == expected)
    }

    @Test(
        "imperial distances: feet under 0.1 mi, miles with one decimal, whole miles from 100",
        arguments: [
            (0.0, "0 ft"), (30.48, "100 ft"), (160.0, "525 ft"), (160.9, "0.1 mi"),
            (160.8, "0.1 mi"), (1609.344, "1.0 mi"), (16_093.44, "10.0 mi"), (160_853, "99.9 mi"),
            (160_900, "100 mi"), (-3, "0 ft")
        ] as [(Double, String)])
    func imperialDistance(metres: Double, expected: String) {
        #expect(DistanceFormat.string(metres: metres, units: .imperial) == expected)
    }

    @Test("imperial rounding boundary: 527.4 ft stays feet, 527.5 ft becomes 0.1 mi")
    func imperialBoundary() {
        #expect(DistanceFormat.string(metres: 527.4 * 0.3048, units: .imperial) == "527 ft")
        #expect(DistanceFormat.string(metres: 527.5 * 0.3048, units: .imperial) == "0.1 mi")
    }

    @Test("non-finite distances never print NaN")
    func nonFiniteDistance() {
        for value in [Double.nan, .infinity, -.infinity] {
            let text = DistanceFormat.string(metres: value, units: .metric)
            #expect(!text.contains("nan") && !text.contains("NaN") && !text.contains("inf"))
        }
    }

    @Test(
        "pace per km and per mile, with --:-- when there is none, and slow paces in hours",
        arguments: [
            (300.0, UnitSystem.metric, "5:00 /km"), (299.6, .metric, "5:00 /km"), (359.4, .metric, "5:59 /km"),
            (359.5, .metric, "6:00 /km"), (300.0, .imperial, "8:03 /mi"), (3599.0, .metric, "59:59 /km"),
            (.infinity, .metric, "--:-- /km"), (.nan, .imperial, "--:-- /mi"), (0, .metric, "--:-- /km"),
            (-300, .metric, "--:-- /km"), (3601, .metric, "1:00:01 /km"), (4000, .metric, "1:06:40 /km"),
            (3000, .imperial, "1:20:28 /mi")
        ] as [(Double, UnitSystem, String)])
    func pace(secondsPerKilometre: Double, units: UnitSystem, expected: String) {
        #expect(TimeFormat.pace(secondsPerKilometre: secondsPerKilometre, units: units) == expected)
    }

    @Test(
        "durations as m:ss below an hour and h:mm:ss from one",
        arguments: [
            (0.0, "0:00"), (59.4, "0:59"), (59.5, "1:00"), (61, "1:01"), (3599.4, "59:59"), (3599.5, "1:00:00"),
            (3661, "1:01:01"), (36_000, "10:00:00"), (-4, "0:00"), (.nan, "--:--")
        ] as [(Double, String)])
    func duration(seconds: Double, expected: String) {
        #expect(TimeFormat.duration(seconds: seconds) == expected)
    }

    @Test(
        "speeds in km/h and mph",
        arguments: [
            (0.0, UnitSystem.metric, "0.0 km/h"), (2.7778, .metric, "10.0 km/h"), (-1, .metric, "0.0 km/h"),
            (0.44704, .imperial, "1.0 mph"), (.nan, .metric, "-- km/h")
        ] as [(Double, UnitSystem, String)])
    func speed(metresPerSecond: Double, units: UnitSystem, expected: String) {
        #expect(TimeFormat.speed(metresPerSecond: metresPerSecond, units: units) == expected)
    }

    @Test(
        "fixed-point numbers never use exponents or -0",
        arguments: [
            (1e-5, 6, "0.00001"), (-0.0000001, 6, "0"), (-0.0, 2, "0"), (89.9999999, 6, "90"), (-180, 6, "-180"),
            (2.5, 0, "3"), (1.25, 1, "1.3"), (123456789.123, 3, "123456789.123"), (0.1, 6, "0.1")
        ] as [(Double, Int, String)])
    func trimmedNumbers(value: Double, decimals: Int, expected: String) {
        #expect(NumberText.trimmed(value, decimals: decimals) == expected)
    }

    @Test(
        "fixed-point numbers: half away from zero, exactly `decimals` places, huge values too",
        arguments: [
            (-0.04, 1, "0.0"), (1234.5678, 2, "1234.57"), (-2.5, 0, "-3"), (0.000001, 9, "0.000001000"),
            (7, 3, "7.000"),
            (1e20, 2, "100000000000000000000.00"), (.infinity, 2, "--")
        ] as [(Double, Int, String)])
    func fixedNumbers(value: Double, decimals: Int, expected: String) {
        #expect(NumberText.fixed(value, decimals: decimals) == expected)
    }

    @Test(
        "fixed-point rounding at the half and just below it, up to the largest value written",
        arguments: [
            (0.49999999999999994, 0, "0"), (0.5, 0, "1"), (-0.5, 0, "-1"), (4503599627370495.5, 0, "4503599627370496"),
            (8_999_999_999_999_999, 0, "8999999999999999"), (0.125, 2, "0.13"), (1.0000000005, 9, "1.000000001")
        ] as [(Double, Int, String)])
    func roundingEdges(value: Double, decimals: Int, expected: String) {
        #expect(NumberText.fixed(value, decimals: decimals) == expected)
    }

    @Test("fixed-point digits are the scaled value rounded half away from zero, for halves and random values")
    func roundingMatchesRounded() {
        var random = SeededRandom(seed: 12)
        func unit() -> Double { Double(random.next() >> 11) * 0x1.0p-53 }
        for index in 0..<20_000 {
            let decimals = Int(random.next() % 10)
            let scale = pow(10, Double(decimals))
            // Every other value lies on a half of the last place (exact in binary), the rest anywhere.
            let magnitude = pow(10, unit() * 15) / scale
            let value = index % 2 == 0 ? ((magnitude * scale).rounded(.down) + 0.5) / scale : magnitude
            let expected = (value.magnitude * scale).rounded()
            guard expected < 9e15 else { continue }
            let digits = NumberText.fixed(value, decimals: decimals).filter { $0 != "." && $0 != "-" }
            #expect(UInt64(digits) == UInt64(expected), "\(value) \(decimals)")
        }
    }

    @Test("digits: every length, both sides of each power of ten, zero-padded to any width")
    func digits() {
        var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 10
        for _ in 1...19 {
            values += [power - 1, power, power + 1]
            power = power &* 10
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            for value in values {
                for width in [0, 1, 5, 12, 21] {
                    let count = NumberText.digits(value, width: width, into: buffer.baseAddress!)
                    let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
                    let plain = String(value)
                    #expect(text == String(repeating: "0", count: max(0, width - plain.count)) + plain)
                    #expect(NumberText.digitCount(value) == plain.count)
                }
            }
        }
    }

    @Test("trimmed is fixed without its trailing zeros; fixed reads back within half a unit of its last place")
    func fixedAndTrimmedAgree() throws {
        var random = SeededRandom(seed: 11)
        func unit() -> Double { Double(random.next() >> 11) * 0x1.0p-53 }
        for _ in 0..<20_000 {
            let value = (unit() < 0.5 ? -1 : 1) * pow(10, unit() * 20 - 8)
            let decimals = Int(random.next() % 10)
            let fixed = NumberText.fixed(value, decimals: decimals)
            var stripped = fixed
            if stripped.contains(".") {
                while stripped.hasSuffix("0") { stripped.removeLast() }
                if stripped.hasSuffix(".") { stripped.removeLast() }
            }
            #expect(NumberText.trimmed(value, decimals: decimals) == stripped, "\(value) \(decimals)")
            #expect(
                (fixed.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0)
                    == decimals)
            let unitInLastPlace = pow(10, -Double(decimals))
            #expect(
                abs(try #require(Double(fixed)) - value) <= unitInLastPlace / 2 + abs(value) * 1e-15,
                "\(value) \(decimals) \(fixed)")
        }
    }
}
