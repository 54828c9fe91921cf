import Logging

/// Logging for the executable (library code only takes a `Logger`).
enum LogSetup {
    /// Bootstraps swift-log to stderr at `level` and returns the root logger.
    static func bootstrap(level: String) -> Logger {
        let parsed = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = parsed
            return handler
        }
        var logger = Logger(label: "meridian")
        logger.logLevel = parsed
        return logger
    }
}
