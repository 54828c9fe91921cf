/// What an NMEA decoder has seen so far. Every byte that is not part of an
/// accepted sentence is accounted for by one of the rejection counters.
public struct NMEACounters: Sendable, Equatable {
    /// Sentences with a valid checksum (or none, under `ChecksumPolicy.optional`) and well-formed fields.
    public var sentences = 0
    /// Sentences whose checksum did not match or was malformed (`*`, `*4`, `*ZZ`).
    public var badChecksum = 0
    /// Sentences without a checksum, rejected under `ChecksumPolicy.required`.
    public var missingChecksum = 0
    /// Well-framed sentences of a talker or type Meridian does not decode (counted, not an error).
    public var unknownType = 0
    /// Sentences with a field that cannot be read (e.g. a letter in a number, latitude 95°).
    public var invalidFields = 0
    /// Sentences cut short: a new `$` or a control byte arrived before the end of the line.
    public var truncated = 0
    /// Sentences longer than `SentenceFramer.maximumLength`.
    public var tooLong = 0
    /// Bytes outside any sentence (binary noise, text that does not start with `$`).
    public var garbageBytes = 0
    /// `#` comment lines (as in gpsd's test logs).
    public var commentLines = 0
    /// Receiver cycles that had a time of day but no date to go with it, so no fix could be made.
    public var undatedEpochs = 0
    /// Fixes produced.
    public var fixesEmitted = 0

    public init() {}

    /// Sentences rejected for any reason other than an unknown type.
    public var rejectedSentences: Int { badChecksum + missingChecksum + invalidFields + truncated + tooLong }

    /// The counters with snake_case names, for `ProviderHealth.setCounters`.
    public var dictionary: [String: Int] {
        [
            "sentences": sentences,
            "bad_checksum": badChecksum,
            "missing_checksum": missingChecksum,
            "unknown_type": unknownType,
            "invalid_fields": invalidFields,
            "truncated": truncated,
            "too_long": tooLong,
            "garbage_bytes": garbageBytes,
            "comment_lines": commentLines,
            "undated_epochs": undatedEpochs,
            "fixes_emitted": fixesEmitted
        ]
    }
}
