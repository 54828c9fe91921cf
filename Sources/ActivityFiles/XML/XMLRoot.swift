/// Finds the name of an XML document's root element in its first bytes.
enum XMLRoot {
    /// The root element's name without its namespace prefix ("gpx", "TrainingCenterDatabase"),
    /// skipping a UTF-8 byte order mark, blank space, the XML declaration, processing
    /// instructions, comments and a DOCTYPE; nil when `prefix` does not get that far or is not XML.
    static func localName(_ prefix: some Collection<UInt8>) -> String? {
        var bytes = Array(prefix)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        while true {
            while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D {
                bytes = bytes.dropFirst()
            }
            guard bytes.first == UInt8(ascii: "<") else { return nil }
            if bytes.starts(with: Array("<?".utf8)) {
                guard let end = bytes.firstRange(of: Array("?>".utf8)) else { return nil }
                bytes = bytes[end.upperBound...]
            } else if bytes.starts(with: Array("<!--".utf8)) {
                guard let end = bytes.firstRange(of: Array("-->".utf8)) else { return nil }
                bytes = bytes[end.upperBound...]
            } else if bytes.starts(with: Array("<!".utf8)) {
                guard let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
                bytes = bytes[(end + 1)...]
            } else {
                let name = bytes.dropFirst().prefix { byte in
                    !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
                        || byte == UInt8(ascii: "/"))
                }
                guard name.endIndex < bytes.endIndex else { return nil }  // the name may go on past the prefix
                let qualified = String(decoding: name, as: UTF8.self)
                return qualified.split(separator: ":").last.map(String.init)
            }
        }
    }
}
