import MapLinkCore
import MeridianCore

/// The `flyers` consumer's configuration.
package struct FlyerOptions: Decodable, Sendable, Equatable {
    /// Metres the position must move before enter/exit events are re-evaluated.
    package var moveThreshold: Double = 50
    /// Radius used by nearby searches that give none; nil: the nearest flyers wherever they are.
    package var defaultRadiusM: Double?
    /// Page size used when a request gives no limit.
    package var defaultLimit: Int = 20
    /// The largest page a request may ask for.
    package var maxResults: Int = 200
    /// Style of the `map_url` of each result.
    package var mapStyle: MapStyle = .apple
    /// `postgres://…`: the flyers live in PostGIS; nil: in the SpatiaLite store.
    package var database: String?
    /// The most connections to PostgreSQL at once.
    package var databaseConnections: Int = 8
    /// Whose enter/exit events: the fused position, every device, or both.
    package var fences: FenceMode = .fused

    enum CodingKeys: String, CodingKey {
        case moveThreshold = "move_threshold"
        case defaultRadiusM = "default_radius_m"
        case defaultLimit = "default_limit"
        case maxResults = "max_results"
        case mapStyle = "map_style"
        case database
        case databaseConnections = "database_connections"
        case fences
    }

    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        moveThreshold = try container.decodeIfPresent(Double.self, forKey: .moveThreshold) ?? moveThreshold
        defaultRadiusM = try container.decodeIfPresent(Double.self, forKey: .defaultRadiusM)
        defaultLimit = try container.decodeIfPresent(Int.self, forKey: .defaultLimit) ?? defaultLimit
        maxResults = try container.decodeIfPresent(Int.self, forKey: .maxResults) ?? maxResults
        mapStyle = try container.decodeIfPresent(MapStyle.self, forKey: .mapStyle) ?? mapStyle
        database = try container.decodeIfPresent(String.self, forKey: .database)
        databaseConnections =
            try container.decodeIfPresent(Int.self, forKey: .databaseConnections) ?? databaseConnections
        fences = try container.decodeIfPresent(FenceMode.self, forKey: .fences) ?? fences
    }

    /// The PostgreSQL database of `database`, nil for SpatiaLite.
    package var postgres: PostgresLocation? {
        database.flatMap { try? PostgresLocation(url: $0) }
    }

    /// Decodes and checks the values; errors name the option.
    package static func decode(_ options: PluginOptions) throws(ConfigError) -> FlyerOptions {
        let decoded = try options.decode(FlyerOptions.self)
        guard decoded.moveThreshold.isFinite, decoded.moveThreshold >= 0 else {
            throw options.error(key: "move_threshold", "must be 0 or more metres")
        }
        if let radius = decoded.defaultRadiusM, !(radius.isFinite && radius > 0) {
            throw options.error(
                key: "default_radius_m",
                "must be more than 0 metres (leave it out to return the nearest flyers at any distance)")
        }
        guard (1...10_000).contains(decoded.maxResults) else {
            throw options.error(key: "max_results", "must be a whole number in 1...10000")
        }
        guard (1...decoded.maxResults).contains(decoded.defaultLimit) else {
            throw options.error(
                key: "default_limit", "must be a whole number in 1...max_results (\(decoded.maxResults))")
        }
        if let database = decoded.database {
            do {
                _ = try PostgresLocation(url: database)
            } catch {
                throw options.error(key: "database", error.description)
            }
        }
        guard (1...100).contains(decoded.databaseConnections) else {
            throw options.error(key: "database_connections", "must be a whole number in 1...100")
        }
        return decoded
    }

    /// The documented options, for `meridian plugins`.
    static let info: [OptionInfo] = [
        OptionInfo(
            "move_threshold", "metres", default: "50",
            "how far the position must move before flyer.enter/flyer.exit are re-evaluated"),
        OptionInfo(
            "default_radius_m", "metres", default: "none",
            "search radius when a request gives none; without it the nearest flyers are returned wherever they are"),
        OptionInfo("default_limit", "integer", default: "20", "results per page when a request gives no limit"),
        OptionInfo("max_results", "integer 1...10000", default: "200", "the largest page a request may ask for"),
        OptionInfo(
            "database", "postgres://user[:password]@host[:port]/dbname[?sslmode=disable|require]", default: "none",
            "keep the flyers in PostGIS (many instances, one catalogue); without it they live in the SpatiaLite store"),
        OptionInfo(
            "database_connections", "integer 1...100", default: "8", "the most connections to PostgreSQL at once"),
        OptionInfo(
            "fences", FenceMode.allCases.map(\.rawValue).joined(separator: "|"), default: "fused",
            "whose flyer.enter/flyer.exit events: the fused position, each device on its own (events name device and provider), or both"
        ),
        OptionInfo(
            "map_style", MapStyle.allCases.map(\.rawValue).joined(separator: "|"), default: "apple",
            "style of each result's map_url")
    ]
}
