import Foundation
import PostgresNIO

/// A PostgreSQL database named by a URL:
/// `postgres://user[:password]@host[:port]/dbname[?sslmode=disable|require]` (`postgresql://` too).
/// The user, password and database name may be percent-encoded.
package struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    package var user: String
    package var password: String?
    package var host: String
    package var port: Int
    package var database: String
    /// `require` refuses a server without TLS; `disable` never asks for it.
    package var requiresTLS: Bool

    /// Parses `text`; errors say what is wrong and show the expected form.
    package init(url text: String) throws(PostgresLocationError) {
        let form = "postgres://user[:password]@host[:port]/dbname[?sslmode=disable|require]"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw PostgresLocationError("'\(Self.redacted(text))' is not a URL; write \(form)")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresLocationError(
                "'\(Self.redacted(text))' is a \(scheme):// URL, but only PostgreSQL is supported; write \(form), or give a SpatiaLite file path"
            )
        }
        guard let user = components.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw PostgresLocationError("'\(Self.redacted(text))' names no user; write \(form)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresLocationError("'\(Self.redacted(text))' names no host; write \(form)")
        }
        let database = String(components.percentEncodedPath.dropFirst()).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresLocationError(
                "'\(Self.redacted(text))' names no database (the path after the host); write \(form)")
        }
        var requiresTLS = false
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "disable"): requiresTLS = false
            case ("sslmode", "require"): requiresTLS = true
            case ("sslmode", let value):
                throw PostgresLocationError(
                    "sslmode '\(value ?? "")' is not supported; use sslmode=disable or sslmode=require")
            default:
                throw PostgresLocationError(
                    "'\(item.name)' is not a supported URL parameter; only sslmode=disable|require is")
            }
        }
        self.user = user
        password = components.percentEncodedPassword?.removingPercentEncoding
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 5432
        self.database = database
        self.requiresTLS = requiresTLS
    }

    /// The URL with the password hidden, for messages and logs.
    package var description: String {
        "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)\(requiresTLS ? "?sslmode=require" : "")"
    }

    /// `text` with any password between `:` and `@` hidden.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
            scheme.upperBound < at.lowerBound,
            let colon = text[scheme.upperBound..<at.lowerBound].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at.lowerBound...])
    }

    /// The pool's configuration: at most `connections` connections.
    func clientConfiguration(connections: Int) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database,
            tls: requiresTLS ? .require(.makeClientConfiguration()) : .disable)
        configuration.options.maximumConnections = connections
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// The configuration of a single connection (the one that listens for changes).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database,
            tls: requiresTLS ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable)
    }
}

/// A database URL that cannot be used.
package struct PostgresLocationError: Error, Equatable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
