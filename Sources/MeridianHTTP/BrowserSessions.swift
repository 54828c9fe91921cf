import Foundation
import Hummingbird
import Synchronization

/// Browser sign-in with the API token: a person types the token once into the sign-in form and gets a
/// session cookie (HttpOnly, SameSite=Strict, and Secure over TLS) that the server accepts wherever it accepts the
/// bearer token.
/// Sessions live in memory: a restart signs every browser out.
public final class BrowserSessions: Sendable {
    /// The cookie's name.
    public static let cookieName = "meridian_session"
    /// How long a session lasts after sign-in, seconds (30 days).
    public static let lifetime: TimeInterval = 30 * 86_400
    /// Sessions kept at most; signing in beyond that forgets the oldest.
    static let capacity = 1000

    private let token: [UInt8]
    private let sessions = Mutex<[String: Date]>([:])
    /// Wrong tokens by client, shared with the API's bearer check.
    public let attempts: CredentialAttempts

    /// Sessions for the configured API token.
    public init(token: String, attempts: CredentialAttempts) {
        self.token = Array(token.utf8)
        self.attempts = attempts
    }

    /// What presenting a token to sign in came to.
    public enum SignIn: Sendable {
        /// The `Set-Cookie` value of the new session.
        case signedIn(cookie: String)
        case wrongToken
        /// The client presented too many wrong tokens and has to wait this many seconds.
        case limited(retryAfter: Int)
    }

    /// Opens a session when `candidate` is the token, for `client` (whose wrong tokens are limited, `attempts`);
    /// the cookie is `Secure` when the request came over TLS (`secure`).
    public func signIn(
        presenting candidate: String, client: String, secure: Bool,
        kind: CredentialAttempts.Kind = .signin, now: Date = Date()
    ) -> SignIn {
        if let wait = attempts.begin(client: client, kind: kind, now: now) { return .limited(retryAfter: wait) }
        guard BearerAuthMiddleware.constantTimeEqual(Array(candidate.utf8), token) else {
            attempts.failed(kind: kind)
            return .wrongToken
        }
        attempts.succeeded(client: client, kind: kind)
        var generator = SystemRandomNumberGenerator()
        let id = (0..<4).map { _ in String(generator.next() as UInt64, radix: 16) }
            .map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
        sessions.withLock { sessions in
            sessions = sessions.filter { $0.value > now }
            if sessions.count >= Self.capacity, let oldest = sessions.min(by: { $0.value < $1.value })?.key {
                sessions[oldest] = nil
            }
            sessions[id] = now.addingTimeInterval(Self.lifetime)
        }
        return .signedIn(cookie: Self.cookie(id, maxAge: Int(Self.lifetime), secure: secure))
    }

    /// True when the request carries the cookie of a session that has not expired.
    public func accepts(_ request: Request, now: Date = Date()) -> Bool {
        guard let id = Self.sessionID(in: request) else { return false }
        return sessions.withLock { ($0[id] ?? .distantPast) > now }
    }

    /// Ends the request's session; returns the `Set-Cookie` value that removes the cookie from the browser.
    public func signOut(_ request: Request, secure: Bool) -> String {
        if let id = Self.sessionID(in: request) {
            _ = sessions.withLock { $0.removeValue(forKey: id) }
        }
        return Self.cookie("", maxAge: 0, secure: secure)
    }

    /// The `Set-Cookie` value: `Secure` when the browser reached the server over TLS, so that it never sends the
    /// cookie over plain HTTP.
    static func cookie(_ value: String, maxAge: Int, secure: Bool) -> String {
        "\(cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)\(secure ? "; Secure" : "")"
    }

    /// The session id from the `Cookie` header(s), if any.
    static func sessionID(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { return value }
            }
        }
        return nil
    }
}
