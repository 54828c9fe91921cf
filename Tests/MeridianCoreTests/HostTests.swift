import Foundation
import Logging
import MeridianTesting
import ServiceLifecycle
import Synchronization
import Testing

@testable import MeridianCore

@Suite("Fusion and fan-out")
struct HostTests {
    @Test("highest priority wins, fails over when stale and switches back on recovery")
    func fusionFailover() {
        var fusion = FixFusion(sources: [
            .init(id: "backup", priority: 1, staleAfter: 3),
            .init(id: "primary", priority: 10, staleAfter: 3)
        ])
        let t0 = ContinuousClock.now
        let steps: [(String, Duration, Bool)] = [
            ("backup", .zero, true),  // only source so far
            ("primary", .seconds(1), true),  // higher priority takes over
            ("backup", .seconds(2), false),  // primary still fresh
            ("backup", .seconds(4), false),  // 3 s since primary: not yet stale
            ("backup", .milliseconds(4001), true),  // primary stale: fail over
            ("primary", .seconds(6), true),  // recovered: switch back
            ("backup", .milliseconds(6500), false)
        ]
        for (id, offset, expected) in steps {
            let accepted = fusion.accept(from: id, at: t0 + offset)
            #expect(accepted == expected, "\(id) at \(offset)")
        }
        #expect(fusion.activeSource(at: t0 + .seconds(20)) == nil)  // everything stale
    }

    @Test("equal priorities prefer the provider listed first")
    func tieBreak() {
        var fusion = FixFusion(sources: [
            .init(id: "a", priority: 0, staleAfter: 3), .init(id: "b", priority: 0, staleAfter: 3)
        ])
        let now = ContinuousClock.now
        let results = [
            fusion.accept(from: "b", at: now), fusion.accept(from: "a", at: now), fusion.accept(from: "b", at: now)
        ]
        #expect(results == [true, true, false])
    }

    @Test("each source <provider>/<name> is fused on its own with its provider's priority and stale_after")
    func subSources() {
        var fusion = FixFusion(sources: [
            .init(id: "phones", priority: 10, staleAfter: 3), .init(id: "gps", priority: 5, staleAfter: 3)
        ])
        let t0 = ContinuousClock.now
        let steps: [(String, Duration, Bool)] = [
            ("gps", .zero, true),
            ("phones/a", .seconds(1), true),  // a phone outranks the receiver
            ("phones/b", .seconds(2), false),  // another phone does not take over from a fresh one
            ("gps", .seconds(3), false),
            ("phones/b", .milliseconds(4001), true),  // phone a stale: fail over to phone b, not to the receiver
            ("phones/a", .seconds(5), true),  // a is back and was listed first
            ("gps", .seconds(9), true)  // every phone stale: the receiver
        ]
        for (id, offset, expected) in steps {
            #expect(fusion.accept(from: id, at: t0 + offset) == expected, "\(id) at \(offset)")
        }
        #expect(fusion.activeSource(at: t0 + .milliseconds(5500)) == "phones/a")
    }

    @Test("a source with a priority or stale_after of its own is fused with those")
    func subSourceSettings() {
        var fusion = FixFusion(sources: [
            .init(id: "gps", priority: 15, staleAfter: 3), .init(id: "phones", priority: 10, staleAfter: 3)
        ])
        let own: (String) -> SourceFusion? = { $0 == "watch" ? SourceFusion(priority: 20, staleAfter: 10) : nil }
        let t0 = ContinuousClock.now
        let steps: [(String, Duration, Bool)] = [
            ("phones/a", .zero, true),
            ("gps", .seconds(1), true),  // the receiver outranks phone a
            ("phones/watch", .seconds(2), true),  // the watch outranks the receiver
            ("gps", .seconds(3), false),
            ("gps", .seconds(11), false),  // 9 s since the watch: fresh for its own 10 s
            ("gps", .milliseconds(12001), true)  // stale now: the receiver
        ]
        for (id, offset, expected) in steps {
            #expect(fusion.accept(from: id, at: t0 + offset, settings: own) == expected, "\(id) at \(offset)")
        }
    }

    private func makeHost(
        consumers: [RecordingConsumer], buffer: Int = 1024,
        providers: MadeProviders
    ) throws -> PluginHost {
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration { provider in providers.add(provider) })
        for consumer in consumers {
            registry.register(ConsumerType(type: consumer.id, summary: "records", options: []) { _, _ in consumer })
        }
        let yaml = """
            providers:
              - {id: primary, type: scripted, priority: 10}
              - {id: backup, type: scripted, priority: 1}
            consumers:
            \(consumers.map { "  - type: \($0.id)" }.joined(separator: "\n"))
            """
        let config = try ConfigLoader.parse(yaml)
        return try PluginHost(config: config, registry: registry, logger: Logger(label: "test"), consumerBuffer: buffer)
    }

    @Test("fixes reach every consumer in order, stamped with the provider id")
    func fanOut() async throws {
        let first = RecordingConsumer(id: "first")
        let second = RecordingConsumer(id: "second")
        let providers = MadeProviders()
        let host = try makeHost(consumers: [first, second], providers: providers)
        let group = ServiceGroup(
            configuration: .init(services: host.services, gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        let primary = try #require(providers["primary"])
        for index in 0..<100 { primary.send(.test(45, Double(index) / 1000, provider: "wrong")) }
        try await ManagedProcess.waitUntil(timeout: 120, "delivery") {
            first.fixes.count == 100 && second.fixes.count == 100
        }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(first.fixes.map { $0.coordinate?.longitude } == (0..<100).map { Double($0) / 1000 })
        #expect(first.fixes.allSatisfy { $0.providerID == "primary" })
        #expect(host.position.latest?.coordinate?.longitude == 0.099)
        #expect(host.providerReports().first { $0.id == "primary" }?.fixesReceived == 100)
    }

    @Test("a slow consumer never holds up a fast one; its drops are counted")
    func slowConsumer() async throws {
        let fast = RecordingConsumer(id: "fast")
        let slow = RecordingConsumer(id: "slow", delay: .milliseconds(200))
        let providers = MadeProviders()
        let host = try makeHost(consumers: [fast, slow], buffer: 8, providers: providers)
        let group = ServiceGroup(
            configuration: .init(services: host.services, gracefulShutdownSignals: [], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        let primary = try #require(providers["primary"])
        // Send in bursts no larger than the buffer and let the fast consumer catch up after each;
        // the slow one (200 ms per fix) cannot keep up and must lose fixes, not hold anyone up.
        for burst in 0..<50 {
            for index in (burst * 10)..<(burst * 10 + 8) { primary.send(.test(10, Double(index) / 10_000)) }
            try await ManagedProcess.waitUntil(timeout: 120, "fast consumer") { fast.fixes.count == (burst + 1) * 8 }
        }
        // The fast consumer got everything while the slow one had handled only a few.
        #expect(slow.fixes.count < 20)
        let report = try #require(host.consumerReports().first { $0.id == "slow" })
        #expect(report.dropped >= 400 - 8 - slow.fixes.count - 1)
        #expect(host.consumerReports().first { $0.id == "fast" }?.dropped == 0)
        await group.triggerGracefulShutdown()
        try await running.value
        // Shutdown drains what was queued: the newest fix reached the slow consumer.
        #expect(slow.fixes.last?.coordinate?.longitude == 0.0497)
    }

    @Test("the host fails over to the backup when the primary goes quiet")
    func hostFailover() throws {
        let providers = MadeProviders()
        let host = try makeHost(consumers: [], providers: providers)
        let t0 = ContinuousClock.now
        host.receive(.test(1, 1), from: "primary", at: t0)
        host.receive(.test(2, 2), from: "backup", at: t0 + .seconds(1))
        #expect(host.position.latest?.providerID == "primary")
        host.receive(.test(3, 3), from: "backup", at: t0 + .seconds(5))
        #expect(host.position.latest?.providerID == "backup")
        #expect(host.activeProvider(at: t0 + .seconds(5)) == "backup")
        host.receive(.test(4, 4), from: "primary", at: t0 + .seconds(6))
        #expect(host.position.latest?.coordinate?.latitude == 4)
        let reports = host.providerReports(now: t0 + .seconds(6))
        #expect(reports.first { $0.id == "primary" }?.active == true)
        #expect(reports.first { $0.id == "backup" }?.fixesReceived == 2)
    }

    @Test("unknown plugin types are configuration errors that list the known ones")
    func unknownType() throws {
        let config = try ConfigLoader.parse("providers:\n  - {id: x, type: teleport}\n", file: "m.yaml")
        var registry = PluginRegistry()
        registry.register(ScriptedProvider.registration())
        let error = #expect(throws: ConfigError.self) {
            try PluginHost(config: config, registry: registry, logger: Logger(label: "test"))
        }
        #expect(error?.path == "providers[0].type")
        #expect(error?.message.contains("unknown provider type 'teleport'; registered types: scripted") == true)
        #expect(error?.line == 2)
    }

    @Test("events reach every subscriber; a slow subscriber loses its oldest")
    func eventBus() async throws {
        let bus = EventBus()
        let stream = bus.subscribe(buffer: 2)
        for index in 0..<5 { bus.publish("tick", json: "{\"n\":\(index)}") }
        bus.finishAll()
        var received: [String] = []
        for await event in stream { received.append(event.json) }
        #expect(received == ["{\"n\":3}", "{\"n\":4}"])
        #expect(bus.subscriberCount == 0)
    }

    /// Counts how often it is encoded.
    struct CountedPayload: Encodable {
        let encodings: Atomic<Int>.Shared
        func encode(to encoder: any Encoder) throws {
            encodings.value.add(1, ordering: .relaxed)
            var container = encoder.singleValueContainer()
            try container.encode(1)
        }
    }

    @Test("a subscriber to some event names gets only those, and other events are not even encoded for it")
    func namedSubscription() async throws {
        let bus = EventBus()
        let stream = bus.subscribe(names: ["run.state"])
        let payload = CountedPayload(encodings: Atomic<Int>.Shared(0))
        for _ in 0..<3 { bus.publish("fix", payload) }
        bus.publish("run.state", payload)
        bus.finishAll()
        var received: [String] = []
        for await event in stream { received.append(event.name) }
        #expect(received == ["run.state"])
        #expect(payload.encodings.value.load(ordering: .relaxed) == 1)
    }

    @Test("backoff doubles from 1 s to 30 s and resets")
    func backoff() {
        var backoff = Backoff()
        let delays = (0..<7).map { _ in backoff.nextDelay() }
        #expect(
            delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)])
        backoff.reset()
        #expect(backoff.nextDelay() == .seconds(1))
    }
}

/// The scripted providers a host built, by id.
final class MadeProviders: Sendable {
    private let providers = Mutex<[String: ScriptedProvider]>([:])
    func add(_ provider: ScriptedProvider) { providers.withLock { $0[provider.id] = provider } }
    subscript(id: String) -> ScriptedProvider? { providers.withLock { $0[id] } }
}
