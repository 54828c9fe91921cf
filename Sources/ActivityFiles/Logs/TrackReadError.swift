/// A problem with part of a track file; reading continues with the next valid part
/// unless the file itself cannot be read.
public struct TrackReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file being read.
    public var file: String
    /// 1-based line of the problem, when known.
    public var line: Int?
    /// What is wrong and what was done about it.
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
