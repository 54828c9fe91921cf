import Foundation
import MeridianCore
import NMEA
import Synchronization

/// The provider's decoding state, kept across reopenings so that counters accumulate.
final class SerialSession: Sendable {
    let context: ProviderContext
    private let decoder: Mutex<NMEAStreamDecoder>

    init(context: ProviderContext, checksum: ChecksumPolicy) {
        self.context = context
        self.decoder = Mutex(NMEAStreamDecoder(providerID: context.id, checksum: checksum))
    }

    /// Decodes bytes from the device and emits the fixes they complete; while someone observes the sentence tap, the
    /// receiver's own sentences go there first, as received.
    func feed(_ bytes: some Collection<UInt8>) {
        guard let tap = context.plugin.resources[SentenceTap.Key.self], tap.isObserved else {
            let (fixes, counters) = decoder.withLock { decoder in (decoder.feed(bytes), decoder.counters.dictionary) }
            context.health.setCounters(counters)
            fixes.forEach(context.emit)
            return
        }
        var fixes: [Fix] = []
        var sentences: [String] = []
        let counters = decoder.withLock { decoder in
            func decode(_ buffer: UnsafeRawBufferPointer) {
                decoder.feed(
                    buffer, onFix: { fixes.append($0) },
                    onSentence: { sentences.append("$" + String(decoding: $0, as: UTF8.self)) })
            }
            if bytes.withContiguousStorageIfAvailable({ decode(UnsafeRawBufferPointer($0)) }) == nil {
                Array(bytes).withUnsafeBytes(decode)
            }
            return decoder.counters.dictionary
        }
        context.health.setCounters(counters)
        for text in sentences { tap.offer(SentenceTap.Sentence(providerID: context.id, text: text)) }
        fixes.forEach(context.emit)
    }

    /// Emits the epoch still being assembled (quiet period or device closed).
    func flush() {
        let (fixes, counters) = decoder.withLock { decoder in (decoder.finish(), decoder.counters.dictionary) }
        context.health.setCounters(counters)
        fixes.forEach(context.emit)
    }

    /// Dates time-of-day-only sentences (GGA-only receivers) with the current UTC day until the receiver sends one.
    func assumeToday(_ now: Date = Date()) {
        let startOfDay = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        decoder.withLock { $0.assumedDate = Date(timeIntervalSince1970: startOfDay) }
    }
}
