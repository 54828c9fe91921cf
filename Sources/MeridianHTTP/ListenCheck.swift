import MeridianCore

#if canImport(Glibc)
    import Glibc
#endif

extension MeridianServer {
    /// Refuses an address the service cannot listen on (a port another program holds, a host that is not this
    /// machine's), by binding a socket to it and closing it again: run before anything starts, so that a busy
    /// port is a configuration error and not a failure after the providers are running.
    public static func checkCanListen(_ settings: HTTPSettings) throws(ConfigError) {
        let host =
            settings.host.hasPrefix("[") && settings.host.hasSuffix("]")
            ? String(settings.host.dropFirst().dropLast()) : settings.host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "\(settings.port)", &hints, &list) == 0, let address = list else {
            throw ConfigError(
                path: "http.host",
                message: "'\(settings.host)' is not an address or a name this machine resolves; use 127.0.0.1")
        }
        defer { freeaddrinfo(address) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard descriptor >= 0 else { return }  // cannot test here; the server reports what goes wrong
        defer { close(descriptor) }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 else { return }
        let reason = errno
        if reason == EADDRINUSE {
            throw ConfigError(
                path: "http.port",
                message:
                    "\(settings.host):\(settings.port) is already in use; change http.port (or stop the program that listens there)"
            )
        }
        throw ConfigError(
            path: "http.host",
            message:
                "cannot listen on \(settings.host):\(settings.port) (\(String(cString: strerror(reason)))); check http.host and http.port"
        )
    }
}
