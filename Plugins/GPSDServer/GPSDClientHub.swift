import Foundation
import GPSDProtocol
import MeridianCore
import Metrics
import NIOCore
import Synchronization

/// One fix as the clients get it: each form encoded once, when the first client that wants it asks, and shared; or
/// one sentence a receiver sent.
final class GPSDBroadcast: Sendable {
    /// The provider whose own fix this is; nil for the fused fix. For a sentence, the provider that received it.
    let device: String?
    /// For a fix: its provider hands on its own sentences, so NMEA watchers get those rather than synthesised ones.
    /// For a sentence: its provider won the latest fused fix, so watchers of the fused stream get it too.
    let flag: Bool
    /// A receiver's own sentence with its line end, when this is one.
    let sentence: ByteBuffer?
    private let fix: Fix?
    private let forms = Mutex<[Form: ByteBuffer]>([:])

    enum Form {
        /// TPV (and SKY) lines.
        case json
        /// GGA, RMC, GSA and VTG, for `?WATCH={"nmea":true}` clients.
        case nmea
        /// GGA, RMC and VTG, for `nmea_port` clients.
        case port
    }

    init(_ fix: Fix, device: String?, passesSentences: Bool) {
        self.fix = fix
        self.device = device
        flag = passesSentences
        sentence = nil
    }

    init(sentence: SentenceTap.Sentence, fromWinner: Bool) {
        fix = nil
        device = sentence.providerID
        flag = fromWinner
        self.sentence = ByteBuffer(string: sentence.text + "\r\n")
    }

    /// The fix encoded as `form` (empty for a sentence).
    subscript(form: Form) -> ByteBuffer {
        guard let fix else { return ByteBuffer() }
        return forms.withLock { forms in
            if let encoded = forms[form] { return encoded }
            let encoded = ByteBuffer(string: Self.encode(fix, as: form))
            forms[form] = encoded
            return encoded
        }
    }

    private static func encode(_ fix: Fix, as form: Form) -> String {
        switch form {
        case .json: return GPSDReportWriter.tpv(fix) + (GPSDReportWriter.sky(fix) ?? "")
        case .nmea: return NMEASentenceWriter.watchSentences(fix)
        case .port: return NMEASentenceWriter.portSentences(fix)
        }
    }
}

/// The connected clients of one gpsd server: admission under `max_clients`, the latest fixes for `?POLL;` and
/// `DEVICES`, fan-out of every fix, and the counters `/metrics` shows.
final class GPSDClientHub: Sendable {
    /// A connected client: its event loop, how to hand it a fix (called on that loop) and how to close it.
    struct Client: Sendable {
        let eventLoop: any EventLoop
        let deliver: @Sendable (GPSDBroadcast) -> Void
        let close: @Sendable () -> Void
    }

    private struct State {
        var clients: [Int: Client] = [:]
        var nextID = 0
        var latestFused: Fix?
        var latestOwn: [String: (fix: Fix, arrived: Date)] = [:]
        /// Clients whose watch asks for NMEA.
        var nmeaClients: Set<Int> = []
        /// Providers that hand on their receivers' own sentences.
        var sentenceProviders: Set<String> = []
    }

    let maxClients: Int
    /// The configured providers (and the sources seen since), as `DEVICES` lists them.
    private let providers: [ProviderFixTap.Provider]
    private let state = Mutex(State())
    private let refused = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let connectedGauge: Gauge
    private let refusedCounter: Counter
    private let droppedCounter: Counter

    init(
        id: String, maxClients: Int, providers: [ProviderFixTap.Provider],
        metrics: any MetricsFactory = MetricsSystem.factory
    ) {
        self.maxClients = maxClients
        self.providers = providers
        let dimensions = [("consumer", id)]
        connectedGauge = Gauge(
            label: MeridianMetric.gpsdServerClients.rawValue, dimensions: dimensions, factory: metrics)
        refusedCounter = Counter(
            label: MeridianMetric.gpsdServerRefused.rawValue, dimensions: dimensions, factory: metrics)
        droppedCounter = Counter(
            label: MeridianMetric.gpsdServerDropped.rawValue, dimensions: dimensions, factory: metrics)
    }

    /// Adds `client` and returns its number, or nil (counted as refused) when `maxClients` are connected.
    func admit(_ client: Client) -> Int? {
        let admitted: (id: Int, count: Int)? = state.withLock { state in
            guard state.clients.count < maxClients else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.clients[id] = client
            return (id, state.clients.count)
        }
        guard let admitted else {
            refused.add(1, ordering: .relaxed)
            refusedCounter.increment()
            return nil
        }
        connectedGauge.record(admitted.count)
        return admitted.id
    }

    /// Forgets client `id` (it disconnected or was dropped).
    func remove(_ id: Int) {
        let count = state.withLock { state in
            state.clients.removeValue(forKey: id)
            state.nmeaClients.remove(id)
            return state.clients.count
        }
        connectedGauge.record(count)
    }

    /// Counts a client disconnected because it left more than its buffer unread.
    func countDropped() {
        dropped.add(1, ordering: .relaxed)
        droppedCounter.increment()
    }

    /// Notes whether client `id`'s watch asks for NMEA (only those clients are handed receivers' sentences).
    func setWantsNMEA(_ id: Int, _ wants: Bool) {
        state.withLock { state in
            if wants { state.nmeaClients.insert(id) } else { state.nmeaClients.remove(id) }
        }
    }

    /// Sends the fused `fix` to every client that watches the fused stream.
    func publishFused(_ fix: Fix) {
        publish(fix, device: nil) { $0.latestFused = fix }
    }

    /// Sends provider `fix.providerID`'s own fix to the clients that watch that device.
    func publishOwn(_ fix: Fix) {
        publish(fix, device: fix.providerID) { $0.latestOwn[fix.providerID] = (fix, Date()) }
    }

    /// Sends a receiver's own sentence to the NMEA watchers of its provider, and of the fused stream while that
    /// provider wins.
    func publishSentence(_ sentence: SentenceTap.Sentence) {
        let (clients, fromWinner) = state.withLock { state in
            state.sentenceProviders.insert(sentence.providerID)
            return (
                state.nmeaClients.compactMap { state.clients[$0] },
                state.latestFused?.providerID == sentence.providerID
            )
        }
        guard !clients.isEmpty else { return }
        fanOut(GPSDBroadcast(sentence: sentence, fromWinner: fromWinner), to: clients)
    }

    private func publish(_ fix: Fix, device: String?, record: (inout State) -> Void) {
        let (clients, passesSentences) = state.withLock { state in
            record(&state)
            return (Array(state.clients.values), state.sentenceProviders.contains(fix.providerID))
        }
        guard !clients.isEmpty else { return }
        fanOut(GPSDBroadcast(fix, device: device, passesSentences: passesSentences), to: clients)
    }

    private func fanOut(_ broadcast: GPSDBroadcast, to clients: [Client]) {
        // One hop per event loop, not per client.
        for (_, group) in Dictionary(grouping: clients, by: { ObjectIdentifier($0.eventLoop) }) {
            group[0].eventLoop.execute {
                for client in group { client.deliver(broadcast) }
            }
        }
    }

    /// Closes every connection (at shutdown).
    func closeAll() {
        for client in state.withLock({ Array($0.clients.values) }) { client.close() }
    }

    /// The latest fix of the stream a client watches: the fused one, or device `device`'s own.
    func latest(device: String?) -> Fix? {
        state.withLock { state in device.map { state.latestOwn[$0]?.fix } ?? state.latestFused }
    }

    /// The devices `DEVICES` lists: every configured provider, then every other source that has sent a fix.
    var devices: [GPSDDeviceInfo] {
        let own = state.withLock { $0.latestOwn }
        let configured = providers.map { provider in
            GPSDDeviceInfo(path: provider.id, driver: provider.type, activated: own[provider.id]?.arrived)
        }
        let others = own.keys.filter { key in !providers.contains { $0.id == key } }.sorted().map { key in
            GPSDDeviceInfo(
                path: key, driver: providers.first { key.hasPrefix($0.id + "/") }?.type ?? "meridian",
                activated: own[key]?.arrived)
        }
        return configured + others
    }

    /// Clients connected now.
    var connectedCount: Int { state.withLock { $0.clients.count } }
    /// Connections refused because `maxClients` were connected.
    var refusedCount: Int { refused.load(ordering: .relaxed) }
    /// Clients disconnected for leaving more than their buffer unread.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
