/// A size limit on a text field people write (a flyer's title, a run's name): at most `characters` characters
/// as people count them, and at most `bytes` bytes of UTF-8, since one character may carry any number of
/// combining marks.
public struct TextLimit: Sendable, Equatable {
    public let characters: Int
    public let bytes: Int

    /// A limit of `characters` characters and `bytes` bytes (default: four per character, the most a
    /// character without combining marks takes).
    public init(characters: Int, bytes: Int? = nil) {
        self.characters = characters
        self.bytes = bytes ?? characters * 4
    }

    /// Nil when `text` fits; else what is wrong, e.g. "is 10485760 bytes of UTF-8 long; the limit is 200 characters
    /// (800 bytes of UTF-8)".
    public func problem(_ text: String) -> String? {
        let size = text.utf8.count
        // A text of no more bytes than the character limit has no more characters either.
        guard size > min(characters, bytes) else { return nil }
        if size > bytes { return "is \(size) bytes of UTF-8 long; the limit is \(summary)" }
        let count = text.count
        return count > characters ? "is \(count) characters long; the limit is \(summary)" : nil
    }

    /// The limit as documented: "200 characters (800 bytes of UTF-8)", or "10000 bytes of UTF-8" when only
    /// the bytes can bind.
    public var summary: String {
        bytes <= characters ? "\(bytes) bytes of UTF-8" : "\(characters) characters (\(bytes) bytes of UTF-8)"
    }
}
