/// The result of decoding one sentence body.
public enum ParsedSentence: Sendable, Equatable {
    case sentence(Talker, NMEASentence)
    /// A well-formed sentence of a talker or type Meridian does not decode.
    case unknownType
    /// A field could not be read.
    case invalid(FieldError)
}

/// Decodes sentence bodies (the text between `$` and `*`).
public enum SentenceParser {
    /// Decodes `body`, e.g. the bytes of `GPGGA,123519,4807.038,N,…`.
    public static func parse(_ body: UnsafeBufferPointer<UInt8>) -> ParsedSentence {
        var sink = WrappingSink()
        switch decode(body, into: &sink) {
        case .accepted(let talker, let sentence): return .sentence(talker, sentence)
        case .unknownType: return .unknownType
        case .invalid(let error): return .invalid(error)
        }
    }

    /// Decodes a body given as text (tests, tools).
    public static func parse(_ body: String) -> ParsedSentence {
        var body = body
        return body.withUTF8 { parse($0) }
    }

    /// Decodes `body` and hands the sentence to `sink` with its concrete type.
    @inline(__always)
    static func decode<Sink: SentenceSink>(_ body: UnsafeBufferPointer<UInt8>, into sink: inout Sink)
        -> SentenceOutcome<Sink.Output>
    {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Fields.storageCapacity) { storage in
            decode(Fields(body, storage: storage), into: &sink)
        }
    }

    /// Decodes a body already split into `fields` (`nil`: it has more than `Fields.maximumCount`).
    @inline(__always)
    static func decode<Sink: SentenceSink>(_ fields: Fields?, into sink: inout Sink) -> SentenceOutcome<Sink.Output> {
        guard let fields else { return .invalid(FieldError(index: Fields.maximumCount)) }
        do throws(FieldError) {
            return try decode(fields, into: &sink)
        } catch {
            return .invalid(error)
        }
    }

    @inline(__always)
    private static func decode<Sink: SentenceSink>(_ f: Fields, into sink: inout Sink) throws(FieldError)
        -> SentenceOutcome<Sink.Output>
    {
        let address = f.range(0)
        guard address.count >= 5 else { return .unknownType }
        let b = f.bytes
        let first = b[address.lowerBound], second = b[address.lowerBound + 1]
        if first == UInt8(ascii: "P") {
            if f.equals(0, "PGRME") { return .accepted(.proprietary, sink.receive(try PGRME(fields: f))) }
            guard second == UInt8(ascii: "Q") else { return .unknownType }
        }
        guard address.count == 5, let talker = talker(first, second) else { return .unknownType }
        let t0 = b[address.lowerBound + 2], t1 = b[address.lowerBound + 3], t2 = b[address.lowerBound + 4]
        let type = UInt32(t0) << 16 | UInt32(t1) << 8 | UInt32(t2)
        switch type {
        case code("GGA"): return .accepted(talker, sink.receive(try GGA(fields: f)))
        case code("RMC"): return .accepted(talker, sink.receive(try RMC(fields: f)))
        case code("GSA"): return .accepted(talker, sink.receive(try GSA(fields: f)))
        case code("GSV"): return .accepted(talker, sink.receive(try GSV(fields: f)))
        case code("VTG"): return .accepted(talker, sink.receive(try VTG(fields: f)))
        case code("GLL"): return .accepted(talker, sink.receive(try GLL(fields: f)))
        case code("GST"): return .accepted(talker, sink.receive(try GST(fields: f)))
        case code("ZDA"): return .accepted(talker, sink.receive(try ZDA(fields: f)))
        case code("GNS"): return .accepted(talker, sink.receive(try GNS(fields: f)))
        case code("TXT"): return .accepted(talker, sink.receive(TXT(fields: f)))
        default: return .unknownType
        }
    }

    private static func code(_ text: StaticString) -> UInt32 {
        let p = text.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }

    private static func talker(_ first: UInt8, _ second: UInt8) -> Talker? {
        switch (first, second) {
        case (0x47, 0x50): return .gp  // GP
        case (0x47, 0x4E): return .gn  // GN
        case (0x47, 0x4C): return .gl  // GL
        case (0x47, 0x41): return .ga  // GA
        case (0x47, 0x42): return .gb  // GB
        case (0x42, 0x44): return .bd  // BD
        case (0x47, 0x51): return .gq  // GQ
        case (0x51, 0x5A): return .qz  // QZ
        case (0x47, 0x49): return .gi  // GI
        case (0x50, 0x51): return .pq  // PQ
        default: return nil
        }
    }
}

/// Builds the public enum for `SentenceParser.parse`.
private struct WrappingSink: SentenceSink {
    func receive<Sentence: DecodedSentence>(_ sentence: Sentence) -> NMEASentence { sentence.wrapped }
}
