import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Log lines for journald when systemd connects stderr to the journal (`JOURNAL_STREAM`): each line starts with its
/// syslog priority (`<3>` for error, …), which journald reads as the entry's level, and carries no timestamp of its
/// own (the journal keeps one).
struct JournalLogHandler: LogHandler {
    let label: String
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// Unused: `LogSetup`'s shared level decides what is logged.
    var logLevel: Logger.Level = .trace

    /// True when stderr is the stream `JOURNAL_STREAM` ("device:inode") names, as systemd sets it for a service.
    static func stderrIsJournal(environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return stream == "\(status.st_dev):\(status.st_ino)"
    }

    /// The syslog priority journald files `level` under (sd-daemon(3)).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        let details =
            merged.isEmpty
            ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let prefix = "<\(Self.priority(event.level))>"
        // Every line carries the priority: journald files each line as an entry of its own.
        let text =
            "\(label): \(event.message)\(details)".split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n") + "\n"
        // One write per event, so that lines of concurrent events never interleave.
        _ = Array(text.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
