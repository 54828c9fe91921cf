import NMEA
import Testing

@Suite("NMEA number fields")
struct NumberFieldTests {
    /// What a VTG with `text` in its speed-in-knots field says: whether it was accepted, and the speed.
    func knots(_ text: String) -> (accepted: Bool, speed: Double?) {
        guard case .sentence(_, .vtg(let vtg)) = SentenceParser.parse("GPVTG,,T,,M,\(text),N,,K,A") else { return (false, nil) }
        return (true, vtg.speedKnots)
    }

    @Test("numbers up to 18 characters and longer ones read the same way")
    func shortAndLongNumbers() {
        #expect(knots("000000000000012.25") == (true, 12.25))
        #expect(knots("0000000000000012.25") == (true, 12.25))
        #expect(knots("123456789012345678") == (true, 123_456_789_012_345_678.0))
        // Past 18 significant digits, the digits after the point are dropped; before it the number is refused.
        #expect(knots("12.250000000000000000000") == (true, 12.25))
        #expect(knots("1234567890123456789012").accepted == false)
    }

    @Test("a decimal needs a digit and at most one point", arguments: [".5", "5.", "+5", "05"])
    func acceptedForms(text: String) {
        #expect(knots(text).accepted)
    }

    @Test(arguments: [".", "-", "+", "1.2.3", "1e5", "5-", "0x1", " 5", "-5"])
    func rejectedForms(text: String) {
        #expect(knots(text).accepted == false, "\(text)")
    }
}
