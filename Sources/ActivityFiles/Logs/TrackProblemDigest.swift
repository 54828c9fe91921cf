/// Lets the first few problems of a track file through one by one and counts the rest, so that a badly
/// damaged file gives a handful of located messages and one summary instead of one line per bad line.
///
/// ```swift
/// var problems = TrackProblemDigest()
/// reader.nextBatch(onError: { if let shown = problems.admit($0) { print(shown) } })
/// if let summary = problems.summary() { print(summary) }
/// ```
public struct TrackProblemDigest: Sendable {
    /// How many problems are shown one by one.
    public let limit: Int
    /// Every problem seen.
    public private(set) var total = 0
    private var file: String?
    private var firstLine: Int?
    private var lastLine: Int?

    public init(limit: Int = 5) {
        self.limit = limit
    }

    /// Counts `problem`; returns it when it is among the first `limit` (to be shown), nil when it is only counted.
    public mutating func admit(_ problem: TrackReadError) -> TrackReadError? {
        total += 1
        file = file ?? problem.file
        if let line = problem.line {
            firstLine = min(firstLine ?? line, line)
            lastLine = max(lastLine ?? line, line)
        }
        return total <= limit ? problem : nil
    }

    /// One line with the counts when some problems were not shown, else nil:
    /// `run.json: 3000 problems (lines 2–3001); the first 5 are shown, the other 2995 were skipped the same way`.
    public func summary() -> String? {
        guard total > limit, let file else { return nil }
        var lines = ""
        if let firstLine, let lastLine {
            lines = firstLine == lastLine ? " (line \(firstLine))" : " (lines \(firstLine)–\(lastLine))"
        }
        return
            "\(file): \(total) problems\(lines); the first \(limit) are shown, the other \(total - limit) were skipped the same way"
    }
}
