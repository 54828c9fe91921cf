import Foundation
import Hummingbird
import MeridianCore
import Metrics
import Synchronization

/// Wrong tokens and keys by client address (`MeridianRequestContext.clientAddress`): on the API (bearer), on the
/// sign-in form, in sign-in links and on the phone feeds (device keys). Each wrong one is answered after a moment; a client may present `burst` wrong ones, then
/// one more every `interval` seconds; beyond that every attempt with a token is a 429 `too_many_attempts` with
/// `Retry-After`, the right token included, until the client has waited. A browser's session cookie still works.
/// Device keys have an allowance of their own per address, so a phone posting with an old key holds back only the
/// feeds, not its owner's API and pages behind the same address.
/// Counted in `/metrics` as `meridian_http_auth_failures_total{kind, result}`.
public final class CredentialAttempts: Sendable {
    /// Wrong tokens a client may present before it has to wait.
    public static let burst = 10.0
    /// Seconds after which a client may present one more.
    public static let interval = 6.0
    /// How long a wrong token's answer is held back.
    public static let delay = Duration.milliseconds(250)
    /// Clients remembered at most; beyond that the one whose last wrong token is oldest is forgotten.
    static let capacity = 10_000

    /// Where a token was presented, the `kind` label.
    public enum Kind: String, Sendable {
        case bearer, signin, link
        case deviceKey = "device_key"
    }

    private struct Allowance {
        var left: Double
        var updated: Date
    }
    private let clients = Mutex<[String: Allowance]>([:])
    private let factory: any MetricsFactory

    public init(metrics: any MetricsFactory) {
        factory = metrics
    }

    /// Takes one attempt from `client`'s allowance before its token is checked (so that parallel requests cannot all
    /// pass before any is counted): nil when it may present a token now, else the whole seconds it has to wait (a
    /// `limited` failure of `kind` is then counted). Follow with `succeeded` or `failed`.
    public func begin(client: String, kind: Kind, now: Date = Date()) -> Int? {
        let client = Self.allowance(client, kind)
        let wait: Double? = clients.withLock { clients in
            let previous = clients[client] ?? Allowance(left: Self.burst, updated: now)
            let left = min(Self.burst, previous.left + max(0, now.timeIntervalSince(previous.updated)) / Self.interval)
            guard left >= 1 else { return (1 - left) * Self.interval }
            if clients[client] == nil, clients.count >= Self.capacity,
                let oldest = clients.min(by: { $0.value.updated < $1.value.updated })?.key
            {
                clients[oldest] = nil
            }
            clients[client] = Allowance(left: left - 1, updated: now)
            return nil
        }
        guard let wait else { return nil }
        count(kind, "limited")
        return max(1, Int(wait.rounded(.up)))
    }

    /// The token of `kind` that `client` presented was right: its attempt is given back.
    public func succeeded(client: String, kind: Kind) {
        let client = Self.allowance(client, kind)
        clients.withLock { clients in
            guard let allowance = clients[client] else { return }
            clients[client] =
                allowance.left + 1 >= Self.burst ? nil : Allowance(left: allowance.left + 1, updated: allowance.updated)
        }
    }

    /// The allowance a token of `kind` from `client` draws on: device keys apart from the API's tokens.
    private static func allowance(_ client: String, _ kind: Kind) -> String {
        kind == .deviceKey ? "\(client) device key" : client
    }

    /// The token was wrong: counted as `refused`.
    public func failed(kind: Kind) {
        count(kind, "refused")
    }

    /// The 429 for a client that has to wait `seconds`.
    public static func limited(retryAfter seconds: Int) -> APIError {
        var error = APIError(
            .tooManyRequests, code: "too_many_attempts",
            message:
                "too many wrong tokens or device keys from this address; wait \(seconds) s before trying again with the right one"
        )
        error.headers[.retryAfter] = String(seconds)
        return error
    }

    private func count(_ kind: Kind, _ result: String) {
        Counter(
            label: MeridianMetric.authFailures.rawValue, dimensions: [("kind", kind.rawValue), ("result", result)],
            factory: factory
        ).increment()
    }
}
