import ArgumentParser
import FlyerProximity
import Foundation
import MeridianCLI
import MeridianCore
import Workloads

/// `meridian-bench flyer-store`: the proximity benchmark's flyers as a SpatiaLite store, and its query points
/// as a list, for benchmarking a running service (`scripts/bench-http`); optionally the same points in Redis.
struct FlyerStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyer-store",
        abstract:
            "Write the proximity benchmark's flyers to DIRECTORY/bench.sqlite and its query points to DIRECTORY/queries.txt (used by scripts/bench-http)."
    )

    @OptionGroup var workload: WorkloadOptions

    func run() async throws {
        try await reportingFailures {
            let folder = URL(fileURLWithPath: workload.directory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let catalogue = FlyerWorkload.benchmarkFlyers(count: workload.flyers, seed: workload.seed, now: Date())
            let (store, imported, seconds) = try ProximityBenchmark.importFlyers(catalogue, into: folder)
            print(
                "stored \(imported) flyers in bench.sqlite (seed \(workload.seed), import \(NumberText.fixed(seconds, decimals: 2)) s)"
            )
            let indexStart = DispatchTime.now().uptimeNanoseconds
            try SpatiaLiteFlyerStore(store: store).storeSearchIndex()
            print(
                "stored the search index in \(NumberText.fixed(Double(DispatchTime.now().uptimeNanoseconds - indexStart) / 1e9, decimals: 2)) s (as `meridian flyers import` does)"
            )
            let points = FlyerWorkload.benchmarkQueries(count: workload.queries, seed: workload.seed)
            // One "LAT LON" line per query, in full precision (Swift's shortest round-tripping text).
            let lines = points.map { "\($0.latitude) \($0.longitude)\n" }.joined()
            try Data(lines.utf8).write(to: folder.appendingPathComponent("queries.txt"))
            print("wrote \(points.count) query points to queries.txt")
            if let redisPort = workload.redisPort {
                let redis = try RedisClient(port: redisPort)
                let loadSeconds = try redis.addFlyers(catalogue)
                _ = try redis.command(["DEL", "queries"])
                for start in stride(from: 0, to: points.count, by: 1000) {
                    let batch = points[start..<min(points.count, start + 1000)].map {
                        ["RPUSH", "queries", "\($0.longitude) \($0.latitude)"]
                    }
                    try RedisClient.check(redis.pipeline(batch), "RPUSH")
                }
                print(
                    "loaded Redis: GEOADD flyers in \(NumberText.fixed(loadSeconds, decimals: 2)) s, \(points.count) query points in the list 'queries'"
                )
            }
        }
    }
}
