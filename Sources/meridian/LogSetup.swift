import Logging
import Synchronization

/// Logging for the executable (library code only takes a `Logger`).
enum LogSetup {
    /// The level every logger of the process logs at, until something sets its own; `meridian serve` changes it
    /// when SIGHUP reloads the configuration (`ReloadService`).
    static let level = Mutex(Logger.Level.info)

    /// Bootstraps swift-log to stderr at `level` (with syslog priorities when stderr is systemd's journal,
    /// `JournalLogHandler`) and returns the root logger.
    static func bootstrap(level: String, environment: [String: String]) -> Logger {
        Self.level.withLock { $0 = Logger.Level(rawValue: level) ?? .info }
        let journal = JournalLogHandler.stderrIsJournal(environment: environment)
        LoggingSystem.bootstrap { label in
            SharedLevelHandler(journal ? JournalLogHandler(label: label) : StreamLogHandler.standardError(label: label))
        }
        return Logger(label: "meridian")
    }
}

/// A handler whose level is the process's shared one (`LogSetup.level`) unless a logger sets its own.
private struct SharedLevelHandler: LogHandler {
    var stream: any LogHandler
    private var ownLevel: Logger.Level?

    init(_ stream: any LogHandler) {
        self.stream = stream
    }

    var logLevel: Logger.Level {
        get { ownLevel ?? LogSetup.level.withLock { $0 } }
        set { ownLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        stream.log(event: event)
    }
}
