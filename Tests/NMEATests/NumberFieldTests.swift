import NMEA
import Testing

@Suite("NMEA number fields")
struct NumberFieldTests {
    /// What a VTG with `text` in its speed-in-knots field says: whether it was accepted, and the speed.
    func knots(_ text: String) -> (accepted: Bool, speed: Double?) {
        guard case .sentence(_, .vtg(let vtg)) = SentenceParser.parse("GPVTG,,T,,M,\(text),N,,K,A") else {
            return (false, nil)
        }
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

    /// The latitude a GLL with `text` in its latitude field decodes to; `nil` when the sentence is rejected.
    func latitude(_ text: String, _ hemisphere: String = "N") -> Double?? {
        guard
            case .sentence(_, .gll(let gll)) = SentenceParser.parse(
                "GPGLL,\(text),\(hemisphere),01131.000,E,123519,A,A")
        else {
            return nil
        }
        return .some(gll.latitude)
    }

    @Test("angles: degrees and minutes, in one pass or part by part")
    func angles() {
        #expect(latitude("4807.038") == 48 + 7.038 / 60)
        #expect(latitude("4807.038", "S") == -(48 + 7.038 / 60))
        #expect(latitude("07.5") == 7.5 / 60)
        #expect(latitude("4807") == 48 + 7.0 / 60)
        #expect(latitude("4807.") == 48 + 7.0 / 60)
        #expect(latitude("004807.0380") == 48 + 7.038 / 60)
        #expect(latitude("+4807.038") == 48 + 7.038 / 60)
        #expect(latitude("48+7.038") == 48 + 7.038 / 60)
        #expect(latitude("4807.0380000000000000001") == 48 + 7.038 / 60)
        #expect(latitude("9000.000") == 90)
        for rejected in ["9000.001", "4860.0", "48-7.038", "-4807.038", "7.5", ".5", "4807.0.1", "48x7.038"] {
            #expect(latitude(rejected) == nil, "\(rejected)")
        }
    }
}
