/// One sentence type as read from its fields (`GGA`, `RMC`…).
///
/// The parser hands each decoded sentence to a `SentenceSink` with its concrete type, so the
/// stream decoder merges it into the epoch in place: no `NMEASentence` enum, no copies of the
/// payload between parsing and merging. `NMEASentence` is built only when a caller asks for it.
protocol DecodedSentence {
    /// Reads the sentence from its fields; throws for the first field that cannot be read.
    init(fields: Fields) throws(FieldError)
    /// The time of day the sentence carries, in milliseconds since midnight UTC.
    var timeOfDay: Int? { get }
    /// What this sentence says about the receiver cycle it belongs to.
    func merge(into epoch: inout Epoch)
    /// The sentence as the public enum.
    var wrapped: NMEASentence { get }
}

/// Receives each decoded sentence with its concrete type.
protocol SentenceSink {
    associatedtype Output
    mutating func receive<Sentence: DecodedSentence>(_ sentence: Sentence) -> Output
}

/// The result of decoding one sentence body into a `SentenceSink`.
enum SentenceOutcome<Output> {
    case accepted(Talker, Output)
    /// A well-formed sentence of a talker or type Meridian does not decode.
    case unknownType
    /// A field could not be read.
    case invalid(FieldError)
}

/// TXT: free text from the receiver, not needed for fixes.
struct TXT: DecodedSentence {
    init() {}
    init(fields: Fields) {}
    var timeOfDay: Int? { nil }
    func merge(into epoch: inout Epoch) {}
    var wrapped: NMEASentence { .txt }
}

extension GGA: DecodedSentence {
    var wrapped: NMEASentence { .gga(self) }
}

extension RMC: DecodedSentence {
    var wrapped: NMEASentence { .rmc(self) }
}

extension GSA: DecodedSentence {
    var timeOfDay: Int? { nil }
    var wrapped: NMEASentence { .gsa(self) }
}

extension GSV: DecodedSentence {
    var timeOfDay: Int? { nil }
    func merge(into epoch: inout Epoch) {}
    var wrapped: NMEASentence { .gsv(self) }
}

extension VTG: DecodedSentence {
    var timeOfDay: Int? { nil }
    var wrapped: NMEASentence { .vtg(self) }
}

extension GLL: DecodedSentence {
    var wrapped: NMEASentence { .gll(self) }
}

extension GST: DecodedSentence {
    var wrapped: NMEASentence { .gst(self) }
}

extension ZDA: DecodedSentence {
    var wrapped: NMEASentence { .zda(self) }
}

extension GNS: DecodedSentence {
    var wrapped: NMEASentence { .gns(self) }
}

extension PGRME: DecodedSentence {
    var timeOfDay: Int? { nil }
    var wrapped: NMEASentence { .pgrme(self) }
}

extension NMEASentence {
    /// Hands the payload to `sink` with its concrete type.
    func deliver<Sink: SentenceSink>(to sink: inout Sink) -> Sink.Output {
        switch self {
        case .gga(let s): return sink.receive(s)
        case .rmc(let s): return sink.receive(s)
        case .gsa(let s): return sink.receive(s)
        case .gsv(let s): return sink.receive(s)
        case .vtg(let s): return sink.receive(s)
        case .gll(let s): return sink.receive(s)
        case .gst(let s): return sink.receive(s)
        case .zda(let s): return sink.receive(s)
        case .gns(let s): return sink.receive(s)
        case .txt: return sink.receive(TXT())
        case .pgrme(let s): return sink.receive(s)
        }
    }

    /// The time of day the sentence carries, in milliseconds since midnight UTC.
    public var timeOfDay: Int? {
        var sink = TimeOfDaySink()
        return deliver(to: &sink)
    }
}

private struct TimeOfDaySink: SentenceSink {
    func receive<Sentence: DecodedSentence>(_ sentence: Sentence) -> Int? { sentence.timeOfDay }
}
