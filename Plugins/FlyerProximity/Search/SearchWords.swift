import Foundation

/// The words text search sees in a text: runs of letters and digits, folded so that letter case, accents and
/// compatibility forms do not count ("Café" and "CAFE" are both `cafe`, "ﬁ" is `fi`). Everything else (spaces,
/// punctuation, symbols, quotes, `*`, `:`…) separates words and is never searched for. The stores' text indexes
/// (FTS5, `tsvector`) hold these words as Meridian made them, so every backend sees the same words.
struct SearchWords {
    /// Words longer than this many Unicode scalars are cut to it (a search word is cut the same way).
    static let longestWord = 64

    /// The folded form of each non-ASCII scalar met so far (folding one takes Foundation's normalisation): its
    /// scalars in order, nil for one that separates words.
    private var folded: [Unicode.Scalar: [Unicode.Scalar?]] = [:]
    /// The UTF-8 bytes of the word being read.
    private var word: [UInt8] = []

    init() {}

    /// The words of `text`, in order (repeats kept).
    mutating func words(of text: String) -> [String] {
        var list = WordList(distinct: false)
        read(text, into: &list)
        return list.strings
    }

    /// The distinct words of a flyer's searchable fields (title, description, address, category), in order of
    /// first appearance.
    mutating func words(of flyer: Flyer) -> [String] {
        words(ofFields: Self.fields(of: flyer))
    }

    /// The distinct words of `fields`, in order of first appearance.
    mutating func words(ofFields fields: [String?]) -> [String] {
        distinct(fields).strings
    }

    /// The words of a flyer as the stores keep them: distinct, separated by single spaces.
    mutating func stored(_ flyer: Flyer) -> String {
        stored(ofFields: Self.fields(of: flyer))
    }

    /// The distinct words of `fields` as the stores keep them, separated by single spaces.
    mutating func stored(ofFields fields: [String?]) -> String {
        distinct(fields).joined
    }

    /// A flyer's searchable fields.
    private static func fields(of flyer: Flyer) -> [String?] {
        [flyer.title, flyer.description, flyer.address, flyer.category]
    }

    /// The distinct words of `fields`, in order of first appearance.
    private mutating func distinct(_ fields: [String?]) -> WordList {
        var list = WordList(distinct: true)
        for case let field? in fields { read(field, into: &list) }
        return list
    }

    /// Adds the words of `text` to `list`, in order.
    private mutating func read(_ text: String, into list: inout WordList) {
        var length = 0
        word.removeAll(keepingCapacity: true)
        func end() {
            list.add(word)
            word.removeAll(keepingCapacity: true)
            length = 0
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                if (0x61...0x7A).contains(value) || (0x30...0x39).contains(value) {
                    if length < Self.longestWord { word.append(UInt8(value)) }
                    length += 1
                } else if (0x41...0x5A).contains(value) {
                    if length < Self.longestWord { word.append(UInt8(value + 0x20)) }
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
                if let part {
                    if length < Self.longestWord { word.append(contentsOf: part.utf8) }
                    length += 1
                } else {
                    end()
                }
            }
        }
        end()
    }

    /// `scalar` decomposed for compatibility, lower-cased, without combining marks (empty for a mark); nil for
    /// each scalar that is not part of a word.
    private mutating func fold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar?] {
        if let known = folded[scalar] { return known }
        let decomposed = String(scalar).decomposedStringWithCompatibilityMapping.lowercased()
            .decomposedStringWithCompatibilityMapping
        let result = decomposed.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }
            .map { Self.isWordScalar($0) ? $0 : nil }
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

/// Words as one run of UTF-8 bytes, each followed by a space, with repeats left out when `distinct`.
private struct WordList {
    let distinct: Bool
    private var bytes: [UInt8] = []
    /// Where each word's bytes end.
    private var ends: [Int] = []
    /// The words so far, once there are too many to compare one by one.
    private var seen: Set<[UInt8]>?

    init(distinct: Bool) {
        self.distinct = distinct
    }

    /// The words, in order.
    var strings: [String] { ends.indices.map { String(decoding: word($0), as: UTF8.self) } }

    /// The words separated by single spaces.
    var joined: String { String(decoding: bytes.dropLast(), as: UTF8.self) }

    /// Adds `word` (nothing if it is empty, or a repeat when `distinct`).
    mutating func add(_ word: [UInt8]) {
        guard !word.isEmpty, !(distinct && repeats(word)) else { return }
        bytes.append(contentsOf: word)
        ends.append(bytes.count)
        bytes.append(0x20)
    }

    private func word(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1] + 1)..<ends[index]]
    }

    /// Whether `word` is already listed (and from the 16th word on, remembers it for the next question).
    private mutating func repeats(_ word: [UInt8]) -> Bool {
        guard ends.count < 16 else {
            var known = seen ?? Set(ends.indices.map { Array(self.word($0)) })
            seen = nil
            let inserted = known.insert(word).inserted
            seen = known
            return !inserted
        }
        let count = word.count
        return bytes.withUnsafeBufferPointer { listed in
            word.withUnsafeBufferPointer { word in
                guard let listed = listed.baseAddress, let word = word.baseAddress else { return false }
                var start = 0
                for end in ends {
                    if end - start == count, memcmp(listed + start, word, count) == 0 { return true }
                    start = end + 1
                }
                return false
            }
        }
    }
}
