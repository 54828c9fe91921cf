import Logging
import MeridianCore
import MeridianHTTP
import ServiceLifecycle
import UnixSignals

/// What SIGHUP does to `meridian serve`: it reads the configuration file again and applies what can change while the
/// service runs, which is the log level, reads the TLS certificate and key files again (certbot renewals: new
/// connections get the new certificate), and logs what it did; everything else takes effect at the next start. A file
/// that no longer loads changes nothing and is logged as an error. SIGHUP never stops the service.
struct ReloadService: Service {
    /// SIGHUPs, trapped from the start of `serve` so that none arriving before this service runs kills the process.
    let signals: UnixSignalsSequence
    let configPath: String
    let environment: [String: String]
    /// The certificate being served (`http.tls`), read again from the same files on every SIGHUP.
    let certificate: ServerCertificate?
    let logger: Logger

    func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            reload()
        }
    }

    /// Reads the TLS files again and applies the configuration file's log level, saying what changed.
    func reload() {
        reloadCertificate()
        let loaded: MeridianConfig
        do {
            loaded = try ConfigLoader.load(path: configPath, environment: environment)
        } catch {
            logger.error(
                "SIGHUP: \(configPath) was not reloaded: \(error); nothing changed (fix the file and send SIGHUP again)"
            )
            return
        }
        let level = Logger.Level(rawValue: loaded.logLevel) ?? .info
        let previous = LogSetup.level.withLock { $0 }
        let change = previous == level ? "log level \(level) (unchanged)" : "log level \(previous) → \(level)"
        // Said while the more verbose of the two levels holds, and at least at that level, so that every reload is
        // shown: a switch to a quieter level, or a reload under `warning`.
        let shown = min(previous, level)
        LogSetup.level.withLock { $0 = shown }
        logger.log(
            level: max(.notice, shown),
            "SIGHUP: reloaded logging from \(configPath): \(change); other settings take effect when the service restarts"
        )
        LogSetup.level.withLock { $0 = level }
    }

    /// Serves the certificate and key files' new contents from the next connection on; files that do not load leave
    /// the old certificate in service.
    private func reloadCertificate() {
        guard let certificate else { return }
        do {
            let summary = try certificate.reload()
            logger.notice("SIGHUP: reloaded TLS from \(certificate.settings.certificate): \(summary)")
        } catch {
            logger.error(
                "SIGHUP: TLS files were not reloaded: \(error); still serving \(certificate.summary) (fix the files and send SIGHUP again)"
            )
        }
    }
}
