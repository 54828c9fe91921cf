import ArgumentParser

/// The options of the generated flyer workload, shared by `proximity` and `flyer-store`.
struct WorkloadOptions: ParsableArguments {
    @Option(help: "Number of flyers to generate.")
    var flyers = 1_000_000

    @Option(help: "Number of query points (seeded with seed + 1, from the flyers' distribution).")
    var queries = 10_000

    @Option(help: "Random seed.")
    var seed: UInt64 = 42

    @Option(help: "Folder for the benchmark database and files (created and kept).")
    var directory: String

    @Option(
        help: "Port of a redis-server on 127.0.0.1 to compare with (loaded with the point flyers as the set 'flyers').")
    var redisPort: Int?
}
