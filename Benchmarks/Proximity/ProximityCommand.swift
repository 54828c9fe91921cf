import ArgumentParser
import Foundation
import MeridianCLI

/// `meridian-bench proximity`: "10 nearest within 5 km" with Meridian's search, plain SpatiaLite SQL and Redis.
struct ProximityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proximity",
        abstract:
            "Benchmark proximity search against SpatiaLite SQL and Redis, or on PostGIS against plain PostGIS SQL (used by scripts/bench-proximity)."
    )

    @OptionGroup var workload: WorkloadOptions

    @Option(
        help:
            "Run the SpatiaLite SQL baseline on the first N queries only (it takes ~0.1 s per query in dense clusters)."
    )
    var sqlQueries = 300

    @Option(help: "With --postgres-url: the number of city-sized polygon queries (200 vertices) beside PostGIS.")
    var polygonQueries = 1000

    @Option(help: "A release meridian binary: time `meridian serve` starting on the benchmark's database.")
    var meridian: String?

    @Option(
        help:
            "A postgres:// URL: benchmark the PostGIS backend there instead (import, search with and without the cache, plain PostGIS SQL)."
    )
    var postgresURL: String?

    func run() async throws {
        try await reportingFailures {
            var settings = ProximityBenchmark.Settings(directory: URL(fileURLWithPath: workload.directory))
            settings.flyers = workload.flyers
            settings.queries = workload.queries
            settings.seed = workload.seed
            settings.sqlQueries = sqlQueries
            settings.polygonQueries = polygonQueries
            settings.redisPort = workload.redisPort
            settings.meridianBinary = meridian
            if let postgresURL {
                try await PostGISBenchmark(settings: settings, url: postgresURL) { print($0) }.run()
            } else {
                try await ProximityBenchmark(settings: settings) { print($0) }.run()
            }
        }
    }
}
