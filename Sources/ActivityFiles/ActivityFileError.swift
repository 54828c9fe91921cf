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
    /// For a damaged FIT file that holds records before the damage: how much of it can be salvaged.
    public var readable: ReadablePart?

    public init(file: String, byteOffset: Int? = nil, line: Int? = nil, message: String, readable: ReadablePart? = nil)
    {
        self.file = file
        self.byteOffset = byteOffset
        self.line = line
        self.message = message
        self.readable = readable
    }

    /// "activity.fit: byte 14: …", "run.gpx:12: …" or "run.tcx: …", then what is readable, when something is.
    public var description: String {
        let readable = readable.map { "; \($0)" } ?? ""
        if let line { return "\(file):\(line): \(message)\(readable)" }
        if let byteOffset { return "\(file): byte \(byteOffset): \(message)\(readable)" }
        return "\(file): \(message)\(readable)"
    }
}

/// The part of a damaged file that is readable: everything up to the last complete message before the damage.
public struct ReadablePart: Sendable, Equatable, CustomStringConvertible {
    /// Bytes up to the end of the last complete message, and the file's size (decompressed).
    public var bytes: Int
    public var totalBytes: Int
    /// Samples (FIT `record`s with a time) in that part.
    public var samples: Int

    public init(bytes: Int, totalBytes: Int, samples: Int) {
        self.bytes = bytes
        self.totalBytes = totalBytes
        self.samples = samples
    }

    /// "the first 751 of 768 bytes (97.8 %, 14 records) are readable and can be salvaged".
    public var description: String {
        let percent = totalBytes > 0 ? Double(bytes) / Double(totalBytes) * 100 : 0
        let shown = (percent * 10).rounded(.down) / 10
        return
            "the first \(bytes) of \(totalBytes) bytes (\(shown) %, \(samples) records) are readable and can be salvaged"
    }
}
