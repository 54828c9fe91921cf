/// A flyer's display text packed into one byte run of a `PackedStrings`: a byte saying which of the
/// optional fields are present, then the title and each present field (description, address, category
/// as written, URL), each as its UTF-8 length (LEB128) and bytes.
///
/// The packed index keeps the text in memory this way so that search results need no database reads,
/// at the cost of a few bytes beyond the text itself.
enum PackedFlyerTexts {
    /// The fields, in the order they are written.
    struct Fields: Equatable {
        var title: String
        var description: String?
        var address: String?
        var category: String?
        var url: String?
    }

    /// The packed bytes of `fields`.
    static func encode(_ fields: Fields) -> [UInt8] {
        let optional = [fields.description, fields.address, fields.category, fields.url]
        var presence: UInt8 = 0
        for (bit, field) in optional.enumerated() where field != nil { presence |= 1 << UInt8(bit) }
        var bytes: [UInt8] = [presence]
        for text in [fields.title] + optional.compactMap({ $0 }) {
            var length = text.utf8.count
            repeat {
                bytes.append(UInt8(length & 0x7F) | (length >= 0x80 ? 0x80 : 0))
                length >>= 7
            } while length > 0
            bytes += text.utf8
        }
        return bytes
    }

    /// The fields packed in `bytes`; nil when they are not a packed record (cut short, lengths past the
    /// end, bytes left over, unknown presence bits).
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Fields? {
        guard let presence = bytes.first, presence < 16 else { return nil }
        var offset = 1
        func next() -> String? {
            var length = 0, shift = 0
            while true {
                guard offset < bytes.count, shift < 35 else { return nil }
                let byte = bytes[offset]
                offset += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            guard length <= bytes.count - offset else { return nil }
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        }
        func optional(_ bit: UInt8) -> String?? {
            guard presence & (1 << bit) != 0 else { return .some(nil) }
            return next().map { .some($0) }
        }
        guard let title = next(), let description = optional(0), let address = optional(1), let category = optional(2),
              let url = optional(3), offset == bytes.count
        else { return nil }
        return Fields(title: title, description: description, address: address, category: category, url: url)
    }
}
