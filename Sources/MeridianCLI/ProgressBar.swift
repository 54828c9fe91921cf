import Foundation

/// A progress bar on standard error, redrawn in place; shown only when standard error is a terminal.
public final class ProgressBar: @unchecked Sendable {
    private let label: String

    /// Nil when standard error is not a terminal or the job is too small to need one.
    public init?(label: String, large: Bool = true) {
        guard isatty(STDERR_FILENO) == 1, large else { return nil }
        self.label = label
    }

    /// Redraws the bar at `fraction` (0…1) of the job, followed by `detail`.
    public func update(fraction: Double, detail: String) {
        let width = 30
        let filled = min(width, max(0, Int(Double(width) * fraction)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(detail)\u{1B}[K".utf8))
    }

    /// Ends the bar's line.
    public func finish() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
