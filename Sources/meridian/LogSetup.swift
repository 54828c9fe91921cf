import Logging
import Synchronization

/// Logging for the executable (library code only takes a `Logger`).
enum LogSetup {
    /// The level every logger of the process logs at, until something sets its own; `meridian serve` changes it
    /// when SIGHUP reloads the configuration (`ReloadService`).
    static let level = Mutex(Logger.Level.info)

    /// Bootstraps swift-log to stderr at `level` and returns the root logger.
    static func bootstrap(level: String) -> Logger {
        Self.level.withLock { $0 = Logger.Level(rawValue: level) ?? .info }
        LoggingSystem.bootstrap { label in SharedLevelHandler(StreamLogHandler.standardError(label: label)) }
        return Logger(label: "meridian")
    }
}

/// A stream handler whose level is the process's shared one (`LogSetup.level`) unless a logger sets its own.
private struct SharedLevelHandler: LogHandler {
    var stream: StreamLogHandler
    private var ownLevel: Logger.Level?

    init(_ stream: StreamLogHandler) {
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
