import Foundation

/// The words text search sees in a text: runs of letters and digits, folded so that letter case, accents and
/// compatibility forms do not count ("Café" and "CAFE" are both `cafe`, "ﬁ" is `fi`). Everything else (spaces,
/// punctuation, symbols, quotes, `*`, `:`…) separates words and is never searched for. The stores' text indexes
/// (FTS5, `tsvector`) hold these words as Meridian made them, so every backend sees the same words.
struct SearchWords {
    /// Words longer than this many Unicode scalars are cut to it (a search word is cut the same way).
    static let longestWord = 64

    /// The folded form of each non-ASCII scalar met so far (folding one takes Foundation's normalisation).
    private var folded: [Unicode.Scalar: [Unicode.Scalar]] = [:]

    init() {}

    /// The words of `text`, in order (repeats kept).
    mutating func words(of text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var length = 0
        func end() {
            if !word.isEmpty { words.append(String(word)) }
            word = String.UnicodeScalarView()
            length = 0
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let value = scalar.value
                if (0x61...0x7A).contains(value) || (0x30...0x39).contains(value) {
                    if length < Self.longestWord { word.append(scalar) }
                    length += 1
                } else if (0x41...0x5A).contains(value) {
                    if length < Self.longestWord { word.append(Unicode.Scalar(value + 0x20) ?? scalar) }
                    length += 1
                } else {
                    end()
                }
                continue
            }
            let parts = fold(scalar)
            if parts.isEmpty {
                // A combining mark (an accent) belongs to the word it sits in; anything else ends the word.
                if scalar.properties.generalCategory != .nonspacingMark { end() }
                continue
            }
            for part in parts {
                if Self.isWordScalar(part) {
                    if length < Self.longestWord { word.append(part) }
                    length += 1
                } else {
                    end()
                }
            }
        }
        end()
        return words
    }

    /// The distinct words of a flyer's searchable fields (title, description, address, category), in order of
    /// first appearance.
    mutating func words(of flyer: Flyer) -> [String] {
        words(ofFields: [flyer.title, flyer.description, flyer.address, flyer.category])
    }

    /// The distinct words of `fields`, in order of first appearance.
    mutating func words(ofFields fields: [String?]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for field in fields {
            guard let field else { continue }
            for word in words(of: field) where seen.insert(word).inserted { result.append(word) }
        }
        return result
    }

    /// The words as the stores keep them: separated by single spaces.
    mutating func stored(_ flyer: Flyer) -> String {
        words(of: flyer).joined(separator: " ")
    }

    /// `scalar` decomposed for compatibility, lower-cased, without combining marks (empty for a mark).
    private mutating func fold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if let known = folded[scalar] { return known }
        let decomposed = String(scalar).decomposedStringWithCompatibilityMapping.lowercased()
            .decomposedStringWithCompatibilityMapping
        let parts = decomposed.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }
        let result = Array(parts)
        folded[scalar] = result
        return result
    }

    /// Letters, digits and spacing marks (which belong to the letters of many scripts).
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}
