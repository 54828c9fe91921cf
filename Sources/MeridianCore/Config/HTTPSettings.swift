/// `http:` section.
public struct HTTPSettings: Sendable, Decodable, Equatable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// Bearer token; required to bind anything but loopback.
    public var token: String?
    /// Seconds a connection may stay open without a request arriving before it is closed.
    public var idleTimeout: Double = 30
    /// Seconds a request head (request line and headers) may take to arrive once its first byte has.
    public var headerTimeout: Double = 10
    /// Seconds of each window in which a request body being read must bring `bodyMinRate` bytes a second.
    public var bodyTimeout: Double = 10
    /// Bytes a second a request body must come at, measured over `bodyTimeout` (else 408 and close).
    public var bodyMinRate: Int = 1024
    /// Connections open at once; one more is answered 503 and closed.
    public var maxConnections: Int = 512
    /// When true, `/health` needs the token too; by default it stays open (status, version and uptime only).
    public var protectHealth: Bool = false
    /// Certificate and key files: when set, the service answers HTTPS (TLS 1.2 or later) only.
    public var tls: TLSSettings?
    /// When true and no token is configured, loopback requests need no credential (the behaviour before tokens were
    /// generated); `serve` warns at every start. Never with a reverse proxy on the same host.
    public var openLoopback: Bool = false
    /// Addresses and CIDR ranges of reverse proxies whose `Forwarded` / `X-Forwarded-For` / `X-Forwarded-Proto`
    /// headers are believed (client address for logs and rate limits, scheme for `Secure` cookies).
    public var trustedProxies: [String] = []

    public init(
        host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
        idleTimeout: Double = 30, headerTimeout: Double = 10, protectHealth: Bool = false
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.protectHealth = protectHealth
    }

    enum CodingKeys: String, CodingKey {
        case host, port, token
        case idleTimeout = "idle_timeout"
        case headerTimeout = "header_timeout"
        case bodyTimeout = "body_timeout"
        case bodyMinRate = "body_min_rate"
        case maxConnections = "max_connections"
        case protectHealth = "protect_health"
        case tls
        case openLoopback = "open_loopback"
        case trustedProxies = "trusted_proxies"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? host
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? port
        token = try container.decodeIfPresent(String.self, forKey: .token)
        idleTimeout = try container.decodeIfPresent(Double.self, forKey: .idleTimeout) ?? idleTimeout
        headerTimeout = try container.decodeIfPresent(Double.self, forKey: .headerTimeout) ?? headerTimeout
        bodyTimeout = try container.decodeIfPresent(Double.self, forKey: .bodyTimeout) ?? bodyTimeout
        bodyMinRate = try container.decodeIfPresent(Int.self, forKey: .bodyMinRate) ?? bodyMinRate
        maxConnections = try container.decodeIfPresent(Int.self, forKey: .maxConnections) ?? maxConnections
        protectHealth = try container.decodeIfPresent(Bool.self, forKey: .protectHealth) ?? protectHealth
        tls = try container.decodeIfPresent(TLSSettings.self, forKey: .tls)
        openLoopback = try container.decodeIfPresent(Bool.self, forKey: .openLoopback) ?? openLoopback
        trustedProxies = try container.decodeIfPresent([String].self, forKey: .trustedProxies) ?? trustedProxies
    }

    /// True when `host` is a loopback address (127.0.0.0/8, ::1) or a name that resolves only to such
    /// addresses ("localhost"); decided by parsing and resolving, never by the text's prefix.
    public var isLoopback: Bool {
        LoopbackAddress.isLoopback(host)
    }
}
