/// Chooses which provider's fixes go through when several are configured.
///
/// The highest-priority provider that has sent a fix within its `staleAfter`
/// window is active (ties go to the one listed first). When it goes quiet the
/// next fresh one takes over; when it sends again it takes back over at once.
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

    private let sources: [Source]
    private var lastFix: [String: ContinuousClock.Instant] = [:]
    /// The provider whose fixes currently go through.
    public private(set) var active: String?

    /// `sources` in configuration order.
    public init(sources: [Source]) {
        self.sources = sources.enumerated()
            .sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }
            .map(\.element)
    }

    /// Records a fix from `id` at `now`; returns true when it should go through.
    public mutating func accept(from id: String, at now: ContinuousClock.Instant) -> Bool {
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

    /// When `id` last sent a fix.
    public func lastFix(from id: String) -> ContinuousClock.Instant? { lastFix[id] }
}
