/// `http.tls:` section: the PEM files that make the service answer HTTPS instead of HTTP.
public struct TLSSettings: Sendable, Decodable, Equatable {
    /// The certificate chain (PEM), leaf first, as certbot's `fullchain.pem`.
    public var certificate: String
    /// The private key (PEM); it must not be readable by group or others.
    public var key: String

    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}
