import Foundation
import MeridianCore
import NIOSSL
import Synchronization

/// The certificate and key HTTPS is answered with (`http.tls`): read from their PEM files at start and again by
/// `reload()` (SIGHUP, after certbot renews them). Connections opened after a reload get the new certificate; open
/// ones keep theirs, and a reload that fails keeps the old one. TLS 1.2 is the lowest version offered.
public final class ServerCertificate: Sendable {
    public let settings: TLSSettings
    private let current: Mutex<(context: NIOSSLContext, summary: String)>

    /// Reads the files; a key readable by group or others, a missing or unreadable file, or a key that does not
    /// belong to the certificate is a `ConfigError` that names the file and what to do.
    public init(settings: TLSSettings) throws(ConfigError) {
        self.settings = settings
        current = Mutex(try Self.load(settings))
    }

    /// What is being served: the leaf certificate's serial number and expiry.
    public var summary: String {
        current.withLock { $0.summary }
    }

    /// The context new connections are set up with.
    var context: NIOSSLContext {
        current.withLock { $0.context }
    }

    /// Reads the files again and serves what they hold from the next connection on; returns the new `summary`.
    /// On error nothing changes.
    @discardableResult
    public func reload() throws(ConfigError) -> String {
        let loaded = try Self.load(settings)
        current.withLock { $0 = loaded }
        return loaded.summary
    }

    private static func load(_ settings: TLSSettings) throws(ConfigError) -> (context: NIOSSLContext, summary: String) {
        try checkKeyPermissions(settings.key)
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(settings.certificate)
        } catch {
            throw ConfigError(
                path: "http.tls.certificate",
                message:
                    "cannot read a PEM certificate from \(settings.certificate) (\(error)); give the certificate chain file, such as certbot's fullchain.pem"
            )
        }
        guard let leaf = chain.first else {
            throw ConfigError(
                path: "http.tls.certificate",
                message:
                    "\(settings.certificate) holds no certificate; give the certificate chain file, such as certbot's fullchain.pem"
            )
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: settings.key, format: .pem)
        } catch {
            throw ConfigError(
                path: "http.tls.key",
                message:
                    "cannot read a PEM private key from \(settings.key) (\(error)); give the key file, such as certbot's privkey.pem"
            )
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        do {
            let context = try NIOSSLContext(configuration: configuration)
            return (context, describe(leaf))
        } catch {
            throw ConfigError(
                path: "http.tls.key",
                message:
                    "\(settings.key) does not go with the certificate in \(settings.certificate) (\(error)); give the key the certificate was issued for"
            )
        }
    }

    /// Refuses a key file that group or others may read or write: anyone who reads it can pose as this service.
    private static func checkKeyPermissions(_ path: String) throws(ConfigError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ConfigError(
                path: "http.tls.key",
                message:
                    "cannot open \(path) (\(String(cString: strerror(errno)))); check http.tls.key and that the service's user may read the file"
            )
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw ConfigError(
                path: "http.tls.key",
                message: "\(path) is open to group or others (mode \(String(mode, radix: 8))); run: chmod 600 \(path)")
        }
    }

    private static func describe(_ leaf: NIOSSLCertificate) -> String {
        let serial = leaf.serialNumber.map { String(format: "%02x", $0) }.joined(separator: ":")
        let expiry = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
        return "certificate serial \(serial), valid until \(expiry.formatted(.iso8601))"
    }
}
