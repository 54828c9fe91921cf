import CMalloc

/// An activity's samples in time order, kept in chunks of ``chunkSize`` so that whoever turns them into something
/// else can let go of them as it goes (``drain(_:)``): an import of a million samples then never holds both the
/// samples and what they become. Otherwise an array: indexed, appended to, changed in place.
public struct RecordedSamples: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, Sendable, Equatable
{
    /// Samples per chunk (2 MiB of them).
    static let chunkSize = 16_384

    private var chunks: [[RecordedSample]] = []
    public private(set) var count = 0

    public init() {}

    public init(arrayLiteral samples: RecordedSample...) {
        append(contentsOf: samples)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> RecordedSample {
        get {
            precondition(position >= 0 && position < count, "sample index \(position) out of range 0..<\(count)")
            return chunks[position / Self.chunkSize][position % Self.chunkSize]
        }
        set {
            precondition(position >= 0 && position < count, "sample index \(position) out of range 0..<\(count)")
            chunks[position / Self.chunkSize][position % Self.chunkSize] = newValue
        }
    }

    public mutating func append(_ sample: RecordedSample) {
        if count % Self.chunkSize == 0 { chunks.append([]) }
        chunks[chunks.count - 1].append(sample)
        count += 1
    }

    public mutating func append(contentsOf samples: some Sequence<RecordedSample>) {
        for sample in samples { append(sample) }
    }

    /// Chunks grow as samples come; nothing to reserve.
    public mutating func reserveCapacity(_ n: Int) {}

    public func makeIterator() -> Iterator { Iterator(chunks: chunks.makeIterator()) }

    /// Walks the chunks without an index computation per sample.
    public struct Iterator: IteratorProtocol {
        var chunks: IndexingIterator<[[RecordedSample]]>
        var current: IndexingIterator<[RecordedSample]>?

        public mutating func next() -> RecordedSample? {
            while true {
                if let sample = current?.next() { return sample }
                guard let chunk = chunks.next() else { return nil }
                current = chunk.makeIterator()
            }
        }
    }

    /// Any other change (rare: insertions, removals) rebuilds the chunks.
    public mutating func replaceSubrange(_ range: Range<Int>, with samples: some Collection<RecordedSample>) {
        var all = Array(self)
        all.replaceSubrange(range, with: samples)
        self = RecordedSamples()
        append(contentsOf: all)
    }

    /// Hands every sample to `body` in order, letting go of each chunk once it has been handed over; the samples
    /// are empty afterwards.
    public mutating func drain(_ body: (RecordedSample) throws -> Void) rethrows {
        var remaining = chunks
        self = RecordedSamples()
        remaining.reverse()
        var released = 0
        while let chunk = remaining.popLast() {
            for sample in chunk { try body(sample) }
            released += 1
            // glibc keeps freed chunks of this size for itself; what `body` builds (one large array, mapped apart)
            // cannot reuse them, so they are handed back to the system every 16 MiB and at the end (not for short
            // activities: a trim walks every arena).
            if released % 8 == 0 { malloc_trim(0) }
        }
        if released > 8, released % 8 != 0 { malloc_trim(0) }
    }

    public static func == (lhs: RecordedSamples, rhs: RecordedSamples) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}
