import ArgumentParser

/// `meridian-bench`: Meridian's benchmarks beside their peers, for `scripts/bench-*`. Not part of the product.
@main
struct MeridianBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meridian-bench",
        abstract:
            "Benchmarks of Meridian against peers (run by scripts/bench-proximity, scripts/bench-http and scripts/bench-runs).",
        subcommands: [ProximityCommand.self, FlyerStoreCommand.self, RunsCommand.self]
    )
}
