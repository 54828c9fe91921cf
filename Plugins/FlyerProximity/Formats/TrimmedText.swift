extension String {
    /// The text without leading and trailing white space (Unicode `White_Space`, which includes
    /// line breaks). Returns the string itself, without copying, when there is nothing to trim:
    /// the common case when importing large files.
    var trimmedWhitespace: String {
        if let first = utf8.first, let last = utf8.last, Self.isVisibleASCII(first), Self.isVisibleASCII(last) {
            return self
        }
        let scalars = unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        else { return self }
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }

    /// Printable ASCII other than space: never white space, and checked without Unicode tables.
    private static func isVisibleASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}
