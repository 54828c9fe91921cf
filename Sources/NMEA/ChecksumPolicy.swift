import MeridianCore

/// What to do with a sentence that carries no `*hh` checksum.
///
/// `required` (the default) rejects it and counts it as `missing_checksum`, as
/// gpsd 3.25 and later do; `optional` accepts it, for old receivers such as the
/// HP 58534A that never send one. A checksum that is present is always verified.
public enum ChecksumPolicy: String, Sendable, CaseIterable, ConfigEnum {
    case required
    case optional
}
