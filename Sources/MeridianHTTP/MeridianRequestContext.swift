import Hummingbird
import NIOCore

/// The request context used by every Meridian route: Hummingbird's basic context, the connection the
/// request arrived on (for `RequestCancellation`), and the client it came from (`ForwardedClient`).
public struct MeridianRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel
    /// The client's address: the peer's, or the one a trusted proxy forwarded (`http.trusted_proxies`).
    public internal(set) var clientAddress = ""
    /// True when the request came over TLS, to this server or to a trusted proxy that says so.
    public internal(set) var isSecure = false
    /// Wrong tokens and keys by client address, for routes that check a credential of their own (the phone feeds).
    public internal(set) var credentialAttempts: CredentialAttempts?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
