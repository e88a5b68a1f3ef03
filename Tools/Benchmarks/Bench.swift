import ArgumentParser

/// `bench`: the workspace's benchmarks, one subcommand per area. Run them in release:
/// `swift run -c release bench ribs`.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Benchmarks for Ribcage's modules. Build with -c release; figures are ratios to a peer measured in the same run.",
        subcommands: [
            RIBsBenchmark.self, StorageBenchmark.self, NetworkBenchmark.self, LayoutBenchmark.self,
            GraphBenchmark.self, TestRunnerBenchmark.self, TestCacheBenchmark.self, TestRemoteBenchmark.self,
            UIBenchmark.self,
            AppBenchmark.self,
        ]
    )
}
