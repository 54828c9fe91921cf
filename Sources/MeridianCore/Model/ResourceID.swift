/// The rule every client-chosen id of a stored resource (a run, a flyer) must follow, checked on
/// every create so that whatever is stored can later be named again in a URL, read, replaced and deleted.
///
/// An id is non-empty, at most `maximumLength` characters (Unicode code points) and has no control
/// characters (Unicode category Cc: U+0000–U+001F, U+007F–U+009F). Anything else is allowed, `/`,
/// spaces and non-ASCII letters included; in a URL path the id is percent-encoded.
public enum ResourceID {
    /// The longest accepted id, in Unicode code points.
    public static let maximumLength = 128

    /// The rule in words, for messages and documentation.
    public static let rule = "an id must be 1 to \(maximumLength) characters without control characters"

    /// Returns `id` unchanged when it follows the rule; otherwise throws an error naming the id and the rule.
    @discardableResult
    public static func check(_ id: String) throws(InvalidResourceID) -> String {
        guard !id.isEmpty else { throw InvalidResourceID(id: id, problem: "is empty") }
        let length = id.unicodeScalars.count
        guard length <= maximumLength else {
            throw InvalidResourceID(id: id, problem: "is \(length) characters long")
        }
        // Category Cc is exactly these 65 code points (and stays so: Unicode's stability policy).
        if let control = id.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw InvalidResourceID(id: id, problem: "contains the control character U+\(hex(control.value))")
        }
        return id
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// An id that breaks `ResourceID`'s rule.
public struct InvalidResourceID: Error, Equatable, CustomStringConvertible {
    /// The id as given.
    public var id: String
    /// What is wrong with it, e.g. "is empty".
    public var problem: String

    public var description: String {
        "id \(Self.quoted(id)) \(problem); \(ResourceID.rule)"
    }

    /// The id for a message: quoted, control characters escaped, long ids shortened.
    private static func quoted(_ id: String) -> String {
        var text = ""
        for scalar in id.unicodeScalars.prefix(40) {
            text += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        let more = id.unicodeScalars.count > 40 ? "…" : ""
        return "'\(text)\(more)'"
    }
}
