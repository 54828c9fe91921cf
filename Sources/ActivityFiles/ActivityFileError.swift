/// A problem with an activity file, located by byte (binary formats) or line (XML), with what
/// is wrong and what to do. Thrown when a file cannot be read; also kept as a warning for a
/// part of a file that was skipped.
public struct ActivityFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as the caller named it.
    public var file: String
    /// 0-based byte offset of the problem in the (decompressed) bytes, when known.
    public var byteOffset: Int?
    /// 1-based line of the problem, when known.
    public var line: Int?
    /// What is wrong and what to do.
    public var message: String

    public init(file: String, byteOffset: Int? = nil, line: Int? = nil, message: String) {
        self.file = file
        self.byteOffset = byteOffset
        self.line = line
        self.message = message
    }

    /// "activity.fit: byte 14: …", "run.gpx:12: …" or "run.tcx: …".
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        if let byteOffset { return "\(file): byte \(byteOffset): \(message)" }
        return "\(file): \(message)"
    }
}
