/// Frames configuration sentences written to a receiver after opening.
enum InitSentence {
    /// Why an `init` entry cannot be sent.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Adds a leading `$`, a `*hh` checksum and CRLF where missing, e.g.
    /// `PMTK220,200` becomes `$PMTK220,200*2C\r\n`. A checksum that is given is kept as is.
    static func frame(_ sentence: String) throws(Problem) -> [UInt8] {
        var text = Array(sentence.utf8)
        while let last = text.last,
            last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") || last == UInt8(ascii: " ")
        {
            text.removeLast()
        }
        guard !text.isEmpty else { throw Problem(description: "is empty") }
        guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw Problem(description: "'\(sentence)' contains characters outside printable ASCII")
        }
        if text.first != UInt8(ascii: "$") && text.first != UInt8(ascii: "!") { text.insert(UInt8(ascii: "$"), at: 0) }
        if !text.contains(UInt8(ascii: "*")) {
            let checksum = text.dropFirst().reduce(UInt8(0), ^)
            text += Array("*".utf8) + hexDigits(checksum)
        }
        return text + [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    }

    private static func hexDigits(_ value: UInt8) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        return [digits[Int(value >> 4)], digits[Int(value & 0x0F)]]
    }
}
