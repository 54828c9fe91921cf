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
        var fields = Fields(title: "")
        // The title comes first, then the present fields in the order of their presence bits (no array between).
        var titleRead = false
        var unread = bytes.first ?? 0
        let presence = walk(bytes) { field in
            let text = String(decoding: field, as: UTF8.self)
            guard titleRead else {
                fields.title = text
                titleRead = true
                return
            }
            let bit = unread.trailingZeroBitCount
            unread &= unread &- 1
            switch bit {
            case 0: fields.description = text
            case 1: fields.address = text
            case 2: fields.category = text
            default: fields.url = text
            }
        }
        return presence == nil ? nil : fields
    }

    /// Calls `field` with the bytes of each field in order (the title first) and returns the presence byte;
    /// nil when `bytes` is not a packed record.
    private static func walk(_ bytes: UnsafeRawBufferPointer, _ field: (UnsafeRawBufferPointer) -> Void) -> UInt8? {
        guard let presence = bytes.first, presence < 16 else { return nil }
        var offset = 1
        for _ in 0..<(1 + presence.nonzeroBitCount) {
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
            field(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]))
            offset += length
        }
        return offset == bytes.count ? presence : nil
    }
}
