/// The phone apps Meridian takes fixes from, each with its own wire format.
package enum FeedProtocol: String, Sendable, Codable, CaseIterable {
    case owntracks, osmand, overland, gpslogger

    /// The accepted names, for messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
