import Foundation
import GPSDProtocol
import Logging
import MeridianCore
import Synchronization

/// The provider's decoding state, kept across connections so that counters
/// accumulate and an epoch repeated by `?POLL;` after a reconnect is not emitted twice.
final class GPSDSession: Sendable {
    /// How a line changed the session.
    enum LineOutcome {
        case accepted
        case rejected(GPSDDecodeError)
    }

    let context: ProviderContext
    let endpoint: String
    private let decoder: Mutex<GPSDStreamDecoder>
    private let lastStatus = Mutex<String?>(nil)

    init(context: ProviderContext, endpoint: String, device: String?) {
        self.context = context
        self.endpoint = endpoint
        self.decoder = Mutex(GPSDStreamDecoder(providerID: context.id, device: device))
    }

    /// Decodes one line, emits the fixes it completes and refreshes health.
    func feed(_ line: some Collection<UInt8>) -> LineOutcome {
        let result = decoder.withLock { decoder -> (Result<[Fix], GPSDDecodeError>, [String: Int], String) in
            let result = Result { () throws(GPSDDecodeError) -> [Fix] in try decoder.feed(line: line) }
            return (result, decoder.counters, Self.status(of: decoder, endpoint: endpoint))
        }
        context.health.setCounters(result.1)
        updateStatus(result.2)
        switch result.0 {
        case .success(let fixes):
            fixes.forEach(context.emit)
            return .accepted
        case .failure(let error):
            return .rejected(error)
        }
    }

    /// Emits the epoch still being merged (quiet period or end of connection).
    func flush() {
        let (fixes, counters) = decoder.withLock { decoder in (decoder.finish(), decoder.counters) }
        context.health.setCounters(counters)
        fixes.forEach(context.emit)
    }

    /// True while an epoch is waiting for more TPV reports.
    var hasPendingEpoch: Bool { decoder.withLock { $0.hasPendingEpoch } }

    /// Reports `connected` with what gpsd has said about itself so far.
    func reportConnected() {
        let status = decoder.withLock { Self.status(of: $0, endpoint: endpoint) }
        lastStatus.withLock { $0 = status }
        context.health.update(.connected, message: status)
    }

    private func updateStatus(_ status: String) {
        let changed = lastStatus.withLock { last in
            defer { last = status }
            return last != nil && last != status
        }
        if changed { context.health.update(.connected, message: status) }
    }

    private static func status(of decoder: GPSDStreamDecoder, endpoint: String) -> String {
        var text = "connected to gpsd"
        if let version = decoder.version {
            if let release = version.release { text += " \(release)" }
            text += " (protocol \(version.protoMajor)\(version.protoMinor.map { ".\($0)" } ?? ""))"
        }
        text += " at \(endpoint)"
        guard decoder.version != nil else { return text }
        if decoder.activeDevices.isEmpty {
            return text
                + "; gpsd reports no active device (check the device gpsd was given and that the receiver is plugged in)"
        }
        return text + "; devices: " + decoder.activeDevices.sorted().joined(separator: ", ")
    }
}
