import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// Builds the configured plugins, fuses the providers' fixes and fans them out
/// to every consumer. Run `services` in one `ServiceGroup`.
public final class PluginHost: Service, Sendable {
    /// A configured provider and its bookkeeping.
    public struct ProviderSlot: Sendable {
        public let id: String
        public let type: String
        public let priority: Int
        public let staleAfter: Double
        public let provider: any LocationProvider
        public let health: ProviderHealth
        let fixesReceived: Atomic<Int>.Shared
    }

    /// A configured consumer and its queue.
    public struct ConsumerSlot: Sendable {
        public let id: String
        public let type: String
        public let consumer: any LocationConsumer
        public let channel: ConsumerChannel
    }

    /// Default size of each consumer's queue.
    public static let defaultConsumerBuffer = 1024

    public let providers: [ProviderSlot]
    public let consumers: [ConsumerSlot]
    public let position: PositionBoard
    public let events: EventBus
    public let resources: Resources
    public let units: UnitSystem
    private let fusion: Mutex<FixFusion>
    private let logger: Logger
    private let fixCounters: [String: Counter]
    private let dropCounters: [String: Counter]
    private let providerFixes: ProviderFixTap

    /// Builds every plugin in `config` from `registry`. Configuration problems
    /// (unknown type, bad options) are thrown as `ConfigError`s that name the entry; a plugin that cannot
    /// start for another reason (its stored data cannot be read…) as a `PluginStartError`.
    public init(
        config: MeridianConfig, registry: PluginRegistry, logger: Logger,
        resources: Resources = Resources(), metrics: any MetricsFactory = MetricsSystem.factory,
        consumerBuffer: Int = PluginHost.defaultConsumerBuffer
    ) throws {
        let position = PositionBoard()
        let events = EventBus()
        self.position = position
        self.events = events
        self.resources = resources
        providerFixes = ProviderFixTap(
            providers: config.providers.map { ProviderFixTap.Provider(id: $0.id, type: $0.type) })
        resources[ProviderFixTap.Key.self] = providerFixes
        resources[LateFixTap.Key.self] = LateFixTap()
        resources[SentenceTap.Key.self] = SentenceTap()
        self.units = config.units
        self.logger = logger
        self.fusion = Mutex(
            FixFusion(
                sources: config.providers.map {
                    FixFusion.Source(id: $0.id, priority: $0.priority, staleAfter: $0.staleAfter)
                }))

        // Plugins are built before `self` is complete, so fixes reach the host through a box.
        let receiver = HostReceiver()
        func context(for spec: PluginSpec) -> PluginContext {
            PluginContext(
                id: spec.id, logger: logger, units: config.units, timeZone: config.timeZone, position: position,
                events: events, resources: resources)
        }
        var providers: [ProviderSlot] = []
        for (index, spec) in config.providers.enumerated() {
            let type = try Self.lookup(
                registry.provider(spec.type), spec, section: "providers", index: index,
                known: registry.providerTypes.map(\.type), file: config.file)
            let health = ProviderHealth()
            let id = spec.id
            let providerContext = ProviderContext(plugin: context(for: spec), health: health) { fix in
                receiver.host?.receive(fix, from: id)
            }
            let provider = try Self.build(spec.id) { try type.make(spec.options, providerContext) }
            providers.append(
                ProviderSlot(
                    id: spec.id, type: spec.type, priority: spec.priority,
                    staleAfter: spec.staleAfter, provider: provider, health: health,
                    fixesReceived: Atomic<Int>.Shared(0)))
        }
        var consumers: [ConsumerSlot] = []
        for (index, spec) in config.consumers.enumerated() {
            let type = try Self.lookup(
                registry.consumer(spec.type), spec, section: "consumers", index: index,
                known: registry.consumerTypes.map(\.type), file: config.file)
            let consumer = try Self.build(spec.id) { try type.make(spec.options, context(for: spec)) }
            consumers.append(
                ConsumerSlot(
                    id: spec.id, type: spec.type, consumer: consumer,
                    channel: ConsumerChannel(capacity: consumerBuffer)))
        }
        self.providers = providers
        self.consumers = consumers
        fixCounters = Dictionary(
            uniqueKeysWithValues: providers.map {
                (
                    $0.id,
                    Counter(
                        label: MeridianMetric.fixesReceived.rawValue, dimensions: [("provider", $0.id)],
                        factory: metrics)
                )
            })
        dropCounters = Dictionary(
            uniqueKeysWithValues: consumers.map {
                (
                    $0.id,
                    Counter(
                        label: MeridianMetric.consumerDropped.rawValue, dimensions: [("consumer", $0.id)],
                        factory: metrics)
                )
            })
        receiver.host = self
    }

    /// The registered type for `spec`, or an error naming the entry and listing the known types.
    private static func lookup<T>(
        _ found: T?, _ spec: PluginSpec, section: String, index: Int, known: [String],
        file: String?
    ) throws(ConfigError) -> T {
        guard let found else {
            let kind = section == "providers" ? "provider" : "consumer"
            throw ConfigError(
                file: file, line: spec.line, path: "\(section)[\(index)].type",
                message: "unknown \(kind) type '\(spec.type)'; registered types: \(known.joined(separator: ", "))")
        }
        return found
    }

    /// Runs a plugin's `make`: configuration errors as they are, anything else as the plugin's start failure.
    private static func build<T>(_ id: String, _ make: () throws -> T) throws -> T {
        do {
            return try make()
        } catch let error as ConfigError {
            throw error
        } catch let error as PluginStartError {
            throw error
        } catch {
            throw PluginStartError(plugin: id, message: "\(error)")
        }
    }

    /// Every service to run: the providers, the consumers and the host's own delivery loops. A provider
    /// that ends or fails is reported in `providerReports` and never ends the group.
    public var services: [any Service] {
        providers.map { ProviderService(provider: $0.provider, health: $0.health, logger: logger) as any Service }
            + consumers.map { $0.consumer as any Service } + [self]
    }

    /// Takes a fix from provider `id`: counts it, fuses, and fans it out when it goes through. A fix whose `providerID`
    /// is `<id>/<source>` (a provider that stands for several devices) is fused as that source of its own.
    public func receive(_ fix: Fix, from id: String, at now: ContinuousClock.Instant = .now) {
        guard let slot = providers.first(where: { $0.id == id }) else { return }
        slot.fixesReceived.value.add(1, ordering: .relaxed)
        fixCounters[id]?.increment()
        let source = fix.providerID.hasPrefix(id + "/") ? fix.providerID : id
        var own = fix
        own.providerID = source
        providerFixes.offer(own)
        let accepted = fusion.withLock { fusion in
            fusion.accept(from: source, at: now) { (slot.provider as? any ReportsSources)?.fusionSettings(of: $0) }
        }
        guard accepted else { return }
        var fix = fix
        fix.providerID = source
        position.update(fix, at: now)
        events.publish("fix", FixRecord(fix, includeProvider: true))
        for consumer in consumers where !consumer.channel.offer(fix) {
            dropCounters[consumer.id]?.increment()
        }
    }

    /// The provider whose fixes currently go through.
    public func activeProvider(at now: ContinuousClock.Instant = .now) -> String? {
        fusion.withLock { $0.activeSource(at: now) }
    }

    /// Delivers queued fixes to each consumer until shutdown, then drains the queues.
    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            for slot in consumers {
                group.addTask {
                    for await fix in slot.channel.stream {
                        await slot.consumer.consume(fix)
                        slot.channel.markDelivered()
                    }
                }
            }
            try? await gracefulShutdown()
            for slot in consumers { slot.channel.finish() }
            events.finishAll()
        }
        logger.debug("host stopped")
    }

    /// State of every provider for `GET /v1/providers`.
    public func providerReports(now: ContinuousClock.Instant = .now) -> [ProviderReport] {
        let (active, lastFixes) = fusion.withLock { fusion in
            (
                fusion.activeSource(at: now),
                Dictionary(uniqueKeysWithValues: providers.map { ($0.id, fusion.lastFix(from: $0.id)) })
            )
        }
        return providers.flatMap { slot in
            let snapshot = slot.health.snapshot
            let sources = (slot.provider as? any ReportsSources)?.sourceReports(now: Date()) ?? []
            // A provider of several sources last sent a fix when its newest source did.
            let age = ([lastFixes[slot.id].flatMap { $0 }.map { (now - $0).seconds }] + sources.map(\.lastFixAgeS))
                .compactMap { $0 }.min()
            let own = ProviderReport(
                id: slot.id, type: slot.type, priority: slot.priority, state: snapshot.state,
                message: snapshot.message, since: snapshot.since,
                active: slot.id == active || active?.hasPrefix(slot.id + "/") == true,
                lastFixAgeS: age, fixesReceived: slot.fixesReceived.value.load(ordering: .relaxed),
                counters: snapshot.counters)
            return [own]
                + sources.map { source in
                    ProviderReport(
                        id: "\(slot.id)/\(source.name)", type: slot.type, priority: slot.priority,
                        state: source.lastFixAgeS == nil ? .connecting : .connected, message: nil,
                        since: snapshot.since,
                        active: active == "\(slot.id)/\(source.name)", lastFixAgeS: source.lastFixAgeS,
                        fixesReceived: source.fixesReceived,
                        counters: source.counters, battery: source.battery, lastRejection: source.lastRejection)
                }
        }
    }

    /// Queue statistics of every consumer.
    public func consumerReports() -> [ConsumerReport] {
        consumers.map {
            ConsumerReport(
                id: $0.id, type: $0.type, delivered: $0.channel.deliveredCount, dropped: $0.channel.droppedCount,
                database: ($0.consumer as? any DatabaseBacked)?.databaseState)
        }
    }
}

/// One provider in `GET /v1/providers`.
public struct ProviderReport: Sendable, Encodable, Equatable {
    public var id: String
    public var type: String
    public var priority: Int
    public var state: ProviderState
    public var message: String?
    public var since: Date
    /// True when this provider's fixes are the ones going through.
    public var active: Bool
    public var lastFixAgeS: Double?
    public var fixesReceived: Int
    public var counters: [String: Int]
    /// 0...1, for a source that reports its battery (a phone).
    public var battery: Double? = nil
    /// Why a source's last refused input was refused.
    public var lastRejection: String? = nil
}

/// One consumer's queue statistics.
public struct ConsumerReport: Sendable, Encodable, Equatable {
    public var id: String
    public var type: String
    public var delivered: Int
    public var dropped: Int
    /// The consumer's database, for consumers with one of their own (`DatabaseBacked`).
    public var database: DatabaseState?
}

/// Lets provider sinks created during `PluginHost.init` reach the finished host.
private final class HostReceiver: @unchecked Sendable {
    // Written once at the end of `Host.init`, before any provider runs.
    weak var host: PluginHost?
}

extension Atomic where Value == Int {
    /// A reference-counted atomic integer that can live in a struct.
    final class Shared: Sendable {
        let value: Atomic<Int>
        init(_ initial: Int) { value = Atomic(initial) }
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
