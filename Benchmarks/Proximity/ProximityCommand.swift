import ArgumentParser
import Foundation
import MeridianCLI

/// `meridian-bench proximity`: "10 nearest within 5 km" with Meridian's search, plain SpatiaLite SQL and Redis.
struct ProximityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proximity",
        abstract: "Benchmark proximity search against SpatiaLite SQL and Redis, or on PostGIS against plain PostGIS SQL (used by scripts/bench-proximity)."
    )

    @Option(help: "Number of flyers to generate.")
    var flyers = 1_000_000

    @Option(help: "Number of queries.")
    var queries = 10_000

    @Option(help: "Random seed.")
    var seed: UInt64 = 42

    @Option(help: "Run the SpatiaLite SQL baseline on the first N queries only (it takes ~0.1 s per query in dense clusters).")
    var sqlQueries = 300

    @Option(help: "Folder for the benchmark database (created and kept).")
    var directory: String

    @Option(help: "Port of a redis-server on 127.0.0.1 to compare with.")
    var redisPort: Int?

    @Option(help: "A release meridian binary: time `meridian serve` starting on the benchmark's database.")
    var meridian: String?

    @Option(help: "A postgres:// URL: benchmark the PostGIS backend there instead (import, search with and without the cache, plain PostGIS SQL).")
    var postgresURL: String?

    func run() async throws {
        try await reportingFailures {
            var settings = ProximityBenchmark.Settings(directory: URL(fileURLWithPath: directory))
            settings.flyers = flyers
            settings.queries = queries
            settings.seed = seed
            settings.sqlQueries = sqlQueries
            settings.redisPort = redisPort
            settings.meridianBinary = meridian
            if let postgresURL {
                try await PostGISBenchmark(settings: settings, url: postgresURL) { print($0) }.run()
            } else {
                try await ProximityBenchmark(settings: settings) { print($0) }.run()
            }
        }
    }
}
