import Foundation

/// A text search (`q`): every one of its words must begin some word of a flyer's title, description, address
/// or category (`SearchWords`: case, accents and punctuation do not count; "caf" finds "Café"). Whatever the
/// user types is text: FTS5 and `tsquery` operators are separators like any other punctuation, never syntax.
package struct TextQuery: Sendable, Equatable, Hashable {
    /// The folded words, each a prefix to match; distinct, at least one.
    package let words: [String]

    /// The most words a query may have.
    package static let mostWords = 16
    /// The longest `q` accepted, in characters.
    package static let longest = 500

    /// Parses `text`; throws a message for the user when it has no letter or digit, or too many words.
    package init(_ text: String) throws(TextQueryError) {
        guard text.count <= Self.longest else { throw .tooLong(text.count) }
        var folder = SearchWords()
        var seen = Set<String>()
        let words = folder.words(of: text).filter { seen.insert($0).inserted }
        guard !words.isEmpty else { throw .noWords }
        guard words.count <= Self.mostWords else { throw .tooManyWords(words.count) }
        self.words = words
    }

    /// True when every word of the query begins some word of `flyer`'s searchable fields.
    func matches(_ flyer: Flyer) -> Bool {
        var folder = SearchWords()
        return matches(words: folder.words(of: flyer))
    }

    /// True when every word of the query begins one of `words`.
    func matches(words flyerWords: [String]) -> Bool {
        words.allSatisfy { prefix in flyerWords.contains { $0.utf8.starts(with: prefix.utf8) } }
    }

    /// The FTS5 `MATCH` expression: each word quoted, as a prefix, all of them required.
    var fts5Match: String {
        words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " AND ")
    }

    /// The `tsquery` text: each word a quoted prefix lexeme, all of them required.
    package var tsquery: String {
        words.map { word in
            "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "':*"
        }.joined(separator: " & ")
    }
}

/// Why a `q` cannot be searched for.
package enum TextQueryError: Error, Equatable, CustomStringConvertible {
    case noWords
    case tooManyWords(Int)
    case tooLong(Int)

    package var description: String {
        switch self {
        case .noWords:
            return "has no letter or digit to search for; give one or more words such as 'coffee' or 'caf'"
        case .tooManyWords(let count):
            return "has \(count) words; give at most \(TextQuery.mostWords)"
        case .tooLong(let count):
            return "is \(count) characters long; give at most \(TextQuery.longest)"
        }
    }
}
