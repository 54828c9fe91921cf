import MeridianHTTP

/// Why a delivery failed, as the dead-letter list and `meridian hooks list` show it.
enum HookDeliveryError: Error, CustomStringConvertible {
    case noAnswer(HTTPClientError)
    case status(Int)

    var description: String {
        switch self {
        case .noAnswer(.timedOut(let seconds)): "no answer within \(seconds) s (the hook's timeout)"
        case .noAnswer(.closed): "the receiver closed the connection before answering"
        case .noAnswer(let error): "\(error)"
        case .status(let code): "the receiver answered HTTP \(code)"
        }
    }
}

/// A hook's receiver: one keep-alive connection (`HTTPClientConnection`) whose requests each get the hook's timeout.
/// Used by one task.
final class HookClient {
    private let endpoint: HTTPEndpoint
    private let connection: HTTPClientConnection

    /// A client of `endpoint` that trusts only the CA in `caFile` for `https://`, or the system's CAs when nil.
    init(endpoint: HTTPEndpoint, timeout: Double, caFile: String? = nil) {
        self.endpoint = endpoint
        connection = HTTPClientConnection(endpoint: endpoint, timeout: timeout, caFile: caFile)
    }

    /// POSTs `body` with `headers`; returns when the receiver answered 2xx, throws `HookDeliveryError` otherwise.
    func post(_ body: [UInt8], headers: [(String, String)]) async throws(HookDeliveryError) {
        let answer: HTTPClientAnswer
        do {
            answer = try await connection.send(
                "POST", endpoint.path, headers: [("Content-Type", "application/json")] + headers, body: body)
        } catch {
            throw .noAnswer(error)
        }
        guard (200..<300).contains(answer.status) else { throw .status(answer.status) }
    }

    /// Closes the connection (the next request opens another).
    func close() {
        connection.close()
    }
}
