import Foundation

/// A provider that stands for several sources (the phone provider's devices); `GET /v1/providers` shows each as
/// `<provider id>/<source>` after the provider's own row. Its fixes carry `providerID` `<provider id>/<source>`, and
/// the host fuses each source as one of its own (`FixFusion`).
public protocol ReportsSources: Sendable {
    /// The state of each source, by name.
    func sourceReports(now: Date) -> [SourceReport]
    /// The fusion priority or `stale_after` of source `name` where it has its own (`nil`: the provider's).
    func fusionSettings(of name: String) -> SourceFusion?
}

extension ReportsSources {
    public func fusionSettings(of name: String) -> SourceFusion? { nil }
}

/// A source's own place in the fusion; what is `nil` is the provider's.
public struct SourceFusion: Sendable, Equatable, Decodable {
    public var priority: Int?
    /// Seconds without a fix after which the source is stale.
    public var staleAfter: Double?

    public init(priority: Int? = nil, staleAfter: Double? = nil) {
        self.priority = priority
        self.staleAfter = staleAfter
    }

    enum CodingKeys: String, CodingKey {
        case priority
        case staleAfter = "stale_after"
    }
}

/// One source of a `ReportsSources` provider.
public struct SourceReport: Sendable, Equatable {
    public var name: String
    /// Seconds since the source's newest fix arrived.
    public var lastFixAgeS: Double?
    public var fixesReceived: Int
    public var counters: [String: Int]
    /// 0...1, as the source last reported it.
    public var battery: Double?
    /// Why the source's last refused input was refused.
    public var lastRejection: String?

    public init(
        name: String, lastFixAgeS: Double?, fixesReceived: Int, counters: [String: Int], battery: Double?,
        lastRejection: String?
    ) {
        self.name = name
        self.lastFixAgeS = lastFixAgeS
        self.fixesReceived = fixesReceived
        self.counters = counters
        self.battery = battery
        self.lastRejection = lastRejection
    }
}
