import Foundation
import Logging
import MeridianCore
import MeridianTesting
import Synchronization
import Testing

@testable import NMEASerialProvider

/// The serial provider hands its receiver's own sentences to the sentence tap, as received, while it is observed.
@Suite struct SerialSessionSentenceTests {
    @Test func everySentenceWithAValidChecksumReachesTheTapAsReceived() throws {
        let text = try String(contentsOf: TestData.url("nmea/aerorust-nmea_with_sat_info.log"), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).prefix(60).map(String.init)
        let tap = SentenceTap()
        let resources = Resources()
        resources[SentenceTap.Key.self] = tap
        let offered = Mutex<[SentenceTap.Sentence]>([])
        let fixes = Mutex<[Fix]>([])
        let context = ProviderContext(
            plugin: PluginContext(id: "serial", logger: Logger(label: "test"), resources: resources)
        ) { fix in fixes.withLock { $0.append(fix) } }
        let session = SerialSession(context: context, checksum: .required)
        // Unobserved: no sentence work.
        session.feed(Array((lines[0] + "\r\n").utf8))
        tap.observe { sentence in offered.withLock { $0.append(sentence) } }
        // Observed, with a damaged line and chunks that cut sentences in two.
        let bytes = Array((lines.dropFirst().joined(separator: "\r\n") + "\r\n$GPGGA,1*00\r\n").utf8)
        for start in stride(from: 0, to: bytes.count, by: 97) {
            session.feed(bytes[start..<min(start + 97, bytes.count)])
        }
        #expect(
            offered.withLock { $0 } == lines.dropFirst().map { SentenceTap.Sentence(providerID: "serial", text: $0) })
        #expect(!fixes.withLock { $0 }.isEmpty)
    }
}
