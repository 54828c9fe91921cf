import MeridianCore

/// The words (`SearchWords`) of the flyers of an in-memory index, by slot, for text queries: each distinct word
/// once (a term), the slots that have it, and each slot's terms. The terms are also kept in byte order, so the
/// words beginning with a query word are one range of it.
///
/// A text query is resolved once per search (`filter`): per query word the terms it begins, and when the rarest
/// query word is in few enough slots, those slots that have every query word (`TextFilter.candidates`), which the
/// search then measures nearest bound first instead of walking the grid.
struct WordIndex {
    private var termIDs: [String: Int32] = [:]
    private var terms: [String] = []
    /// Term ids in byte order of their words.
    private var order: [Int32] = []
    /// Terms added since `order` was last sorted.
    private var added: [Int32] = []
    /// By term id: the slots that have the word, ascending.
    private var postings: [[Int32]] = []
    /// By slot: its terms.
    private var slotTerms: [[Int32]] = []

    /// A query word resolved against the terms: the ids of the terms it begins, or (when it begins very many) its
    /// bytes, compared with each slot's words.
    enum Word {
        case terms(Set<Int32>)
        case prefix(String)
    }

    /// Gives `slot` these words (distinct), replacing any it had.
    mutating func set(slot: Int32, words: [String]) {
        remove(slot: slot)
        let index = Int(slot)
        if slotTerms.count <= index { slotTerms += Array(repeating: [], count: index + 1 - slotTerms.count) }
        var own: [Int32] = []
        own.reserveCapacity(words.count)
        for word in words {
            let term: Int32
            if let known = termIDs[word] {
                term = known
            } else {
                term = Int32(terms.count)
                termIDs[word] = term
                terms.append(word)
                postings.append([])
                added.append(term)
            }
            own.append(term)
            if let last = postings[Int(term)].last, last > slot {
                let position = postings[Int(term)].partitioningIndex { $0 >= slot }
                postings[Int(term)].insert(slot, at: position)
            } else {
                postings[Int(term)].append(slot)
            }
        }
        slotTerms[index] = own
    }

    /// Takes `slot`'s words out.
    mutating func remove(slot: Int32) {
        let index = Int(slot)
        guard index < slotTerms.count, !slotTerms[index].isEmpty else { return }
        for term in slotTerms[index] {
            let position = postings[Int(term)].partitioningIndex { $0 >= slot }
            if position < postings[Int(term)].count && postings[Int(term)][position] == slot {
                postings[Int(term)].remove(at: position)
            }
        }
        slotTerms[index] = []
    }

    /// Puts the terms added since into byte order (after every batch of `set`).
    mutating func finish() {
        guard !added.isEmpty else { return }
        let precedes = { [terms] (a: Int32, b: Int32) in
            terms[Int(a)].utf8.lexicographicallyPrecedes(terms[Int(b)].utf8)
        }
        if added.count > 64 {
            order += added
            order.sort(by: precedes)
        } else {
            for term in added {
                order.insert(term, at: order.partitioningIndex { !precedes($0, term) })
            }
        }
        added.removeAll()
    }

    /// `query` resolved against these terms; nil when some query word begins no word at all (nothing matches).
    /// When the rarest query word is in at most `candidateLimit` slots, `candidates` lists the slots that have
    /// every query word.
    func filter(_ query: TextQuery, candidateLimit: Int) -> TextFilter? {
        var words: [Word] = []
        var rarest: (count: Int, terms: ArraySlice<Int32>)?
        for word in query.words {
            let low = order.partitioningIndex { !terms[Int($0)].utf8.lexicographicallyPrecedes(word.utf8) }
            // The words beginning with `word` follow it in byte order, up to the first that does not.
            var high = low, end = order.count
            while high < end {
                let middle = (high + end) / 2
                if terms[Int(order[middle])].utf8.starts(with: word.utf8) { high = middle + 1 } else { end = middle }
            }
            let range = order[low..<high]
            if range.isEmpty { return nil }
            if range.count > 4096 {
                words.append(.prefix(word))
                continue
            }
            words.append(.terms(Set(range)))
            let count = range.reduce(0) { $0 + postings[Int($1)].count }
            if count == 0 { return nil }
            if count < rarest?.count ?? Int.max { rarest = (count, range) }
        }
        var filter = TextFilter(words: words)
        if let rarest, rarest.count <= candidateLimit {
            var slots: [Int32] = []
            slots.reserveCapacity(rarest.count)
            for term in rarest.terms { slots += postings[Int(term)] }
            if rarest.terms.count > 1 { slots.sort() }
            var previous: Int32 = -1
            filter.candidates = slots.filter { slot in
                defer { previous = slot }
                return slot != previous && admits(slot, filter)
            }
        }
        return filter
    }

    /// True when `slot` has a word beginning with every word of `filter`.
    func admits(_ slot: Int32, _ filter: TextFilter) -> Bool {
        let index = Int(slot)
        guard index < slotTerms.count else { return false }
        let own = slotTerms[index]
        for word in filter.words {
            switch word {
            case .terms(let set):
                if !own.contains(where: set.contains) { return false }
            case .prefix(let prefix):
                if !own.contains(where: { terms[Int($0)].utf8.starts(with: prefix.utf8) }) { return false }
            }
        }
        return true
    }

    /// How many slots a search may measure one by one, rather than walk the grid, for a page of `keep` among
    /// `count` flyers: walking finds a match about every `count / matches` slots, so both cost alike near
    /// √(keep · count) matches.
    static func candidateLimit(keep: Int, count: Int) -> Int {
        max(256, Int((Double(keep) * Double(count)).squareRoot() * 2))
    }
}

/// A text query resolved against a `WordIndex` (see `WordIndex.filter`).
struct TextFilter {
    var words: [WordIndex.Word]
    /// When the rarest query word is rare: every slot with all the query words, ascending.
    var candidates: [Int32]?
}
