import Logging
import MeridianCLI
import MeridianCore

/// How `meridian serve` is reached: with the configured token (`http.token`, `MERIDIAN_TOKEN`), else with the token
/// of the token file beside the database (made on the first start, `TokenFile`), announced as a sign-in link once
/// the port answers; or, with `http.open_loopback` and no token, without a credential, with a warning at every start.
struct ServeAccess {
    /// The token file in use, when the token comes from one.
    let tokenFile: String?
    /// The token requests need; nil when loopback is open.
    let token: String?

    init(config: MeridianConfig, logger: Logger) throws {
        if let configured = config.http.token, !configured.isEmpty {
            (tokenFile, token) = (nil, configured)
        } else if config.http.openLoopback {
            (tokenFile, token) = (nil, nil)
            logger.warning(
                "http.open_loopback: requests from this machine need no token, and a reverse proxy on it makes every request from elsewhere one of them; remove http.open_loopback unless nothing but you can reach this machine"
            )
        } else {
            let file = TokenFile.path(database: config.store.path)
            let (token, created) = try TokenFile.readOrCreate(file)
            (tokenFile, self.token) = (file, token)
            if created {
                logger.notice(
                    "made an API token in \(file) (readable by this user only); `meridian` commands on this machine read it from there"
                )
            }
        }
    }

    /// `config` with the token requests need.
    func apply(to config: MeridianConfig) -> MeridianConfig {
        var config = config
        config.http.token = token
        return config
    }

    /// Logs the sign-in link (`/?token=…`, which sets the browser's session cookie) once the service listens on `port`.
    func announce(http: HTTPSettings, port: Int, logger: Logger) {
        guard let tokenFile, let token else { return }
        let base = ServerOptions.baseURL(host: http.host, port: port, secure: http.tls != nil)
        logger.notice("sign in: \(base)/?token=\(token) (the token is in \(tokenFile))")
    }
}
