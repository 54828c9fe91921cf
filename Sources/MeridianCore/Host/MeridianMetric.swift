/// Every metric family Meridian exports, with the help text `/metrics` shows for it.
public enum MeridianMetric: String, CaseIterable, Sendable {
    case fixesReceived = "meridian_fixes_received_total"
    case consumerDropped = "meridian_consumer_dropped_total"
    case httpRequests = "meridian_http_requests_total"
    case httpRequestDuration = "meridian_http_request_duration_seconds"
    case authFailures = "meridian_http_auth_failures_total"
    case gpsdServerClients = "meridian_gpsd_server_clients"
    case gpsdServerRefused = "meridian_gpsd_server_refused_total"
    case gpsdServerDropped = "meridian_gpsd_server_dropped_total"

    /// One line saying what the family counts or measures.
    public var help: String {
        switch self {
        case .fixesReceived: return "Fixes received from each provider."
        case .consumerDropped: return "Fixes dropped for each consumer because its buffer was full."
        case .httpRequests: return "HTTP requests answered, by method, matched route and status."
        case .httpRequestDuration: return "Time to answer an HTTP request, by method and matched route, in seconds."
        case .authFailures:
            return
                "Wrong tokens and keys presented (bearer, sign-in form, sign-in link, phone device key), by kind and whether they were refused (401) or limited (429)."
        case .gpsdServerClients: return "Clients connected to each gpsd-server consumer (both ports)."
        case .gpsdServerRefused:
            return "Connections each gpsd-server consumer refused because max_clients were connected."
        case .gpsdServerDropped:
            return "Clients each gpsd-server consumer disconnected for leaving more than client_buffer unread."
        }
    }

    /// Prometheus text with a `# HELP` line before the `# TYPE` line of every family listed here.
    public static func withHelp(_ exposition: String) -> String {
        var output = ""
        output.reserveCapacity(exposition.utf8.count + 512)
        for line in exposition.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.split(separator: " ").dropFirst(2).first,
                let metric = MeridianMetric(rawValue: String(name))
            {
                output += "# HELP \(metric.rawValue) \(metric.help)\n"
            }
            output += line
            output += "\n"
        }
        return String(output.dropLast())
    }
}
