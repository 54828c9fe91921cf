/// Chooses which provider's fixes go through when several are configured.
///
/// The highest-priority provider that has sent a fix within its `staleAfter`
/// window is active (ties go to the one listed first). When it goes quiet the
/// next fresh one takes over; when it sends again it takes back over at once.
///
/// A source `<provider>/<name>` (one of a provider's devices, such as a phone) is fused as a source of its own with
/// its provider's priority and `staleAfter` unless the provider gives it its own (`SourceFusion`), listed after the
/// sources of its priority that sent before it (with its provider's priority: after the provider's other sources).
public struct FixFusion: Sendable {
    public struct Source: Sendable {
        public var id: String
        public var priority: Int
        /// Seconds without a fix after which the source is stale.
        public var staleAfter: Double

        public init(id: String, priority: Int, staleAfter: Double) {
            self.id = id
            self.priority = priority
            self.staleAfter = staleAfter
        }
    }

    private var sources: [Source]
    private var lastFix: [String: ContinuousClock.Instant] = [:]
    /// The provider whose fixes currently go through.
    public private(set) var active: String?

    /// `sources` in configuration order.
    public init(sources: [Source]) {
        self.sources = sources.enumerated()
            .sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }
            .map(\.element)
    }

    /// Records a fix from `id` at `now`; returns true when it should go through. `settings` gives a new source
    /// `<provider>/<name>` a priority or `staleAfter` of its own (asked once, when the source first sends).
    public mutating func accept(
        from id: String, at now: ContinuousClock.Instant,
        settings: (String) -> SourceFusion? = { _ in nil }
    ) -> Bool {
        if lastFix[id] == nil, !sources.contains(where: { $0.id == id }) { addSubSource(id, settings) }
        lastFix[id] = now
        active = activeSource(at: now)
        return active == id
    }

    /// The source that is active at `now`.
    public func activeSource(at now: ContinuousClock.Instant) -> String? {
        sources.first { source in
            guard let last = lastFix[source.id] else { return false }
            return now - last <= .seconds(source.staleAfter)
        }?.id
    }

    /// Lists `<provider>/<name>` after its provider and that provider's earlier sources, or, with a priority of its
    /// own, after every source of a priority at least as high.
    private mutating func addSubSource(_ id: String, _ settings: (String) -> SourceFusion?) {
        guard let slash = id.firstIndex(of: "/") else { return }
        let provider = String(id[..<slash])
        guard let parent = sources.firstIndex(where: { $0.id == provider }) else { return }
        let own = settings(String(id[id.index(after: slash)...]))
        let source = Source(
            id: id, priority: own?.priority ?? sources[parent].priority,
            staleAfter: own?.staleAfter ?? sources[parent].staleAfter)
        let end =
            source.priority == sources[parent].priority
            ? sources[parent...].firstIndex { $0.id != provider && !$0.id.hasPrefix(provider + "/") }
            : sources.firstIndex { $0.priority < source.priority }
        sources.insert(source, at: end ?? sources.endIndex)
    }

    /// When `id` last sent a fix.
    public func lastFix(from id: String) -> ContinuousClock.Instant? { lastFix[id] }
}
