import ArgumentParser
import BlockingWork
import Foundation
import RemoteExecution
import RibcagePackage
import Subprocess
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// `bench test-remote`: `ribcage test --remote-executor` through buildbox-casd on this machine
/// against `ribcage test` here, on the same test targets, taking turns in each repetition so a
/// machine that drifts moves both alike.
///
/// The targets are those a remote run sends (the first, untimed run says which stay here). Each
/// repetition times four runs of them:
/// 1. here: `ribcage test S --skip-build`;
/// 2. cold: the same through a casd started empty (hash, upload, every action run);
/// 3. kept: again without `--skip-build` (the build finds nothing to do), so each green result
///    is stored under its stand-in's key, from casd's cache of the run actions;
/// 4. hits: again, every target answered by its stand-in, nothing hashed or uploaded.
///
/// Actions hold what a suite's last traced run recorded: run `ribcage test --cache` once before,
/// or the suites that need recorded files fail on the worker and run here (counted in the output).
struct TestRemoteBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-remote",
        abstract:
            "ribcage test --remote-executor through buildbox-casd on this machine against ribcage test here, on the same test targets."
    )

    @Option(help: "The workspace whose tests run (default: the current folder).")
    var workspace: String?

    @Option(help: "Repetitions; the median of each run is reported.")
    var repetitions = 3

    @Option(help: "Actions at once (casd's jobs and --remote-jobs; default: this machine's cores).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "--remote-shards values to measure, each in its own repetitions (e.g. 1,2).")
    var remoteShards = "1"

    func validate() throws {
        guard repetitions >= 1 else { throw ValidationError("--repetitions takes 1 or more.") }
        guard jobs >= 1 else { throw ValidationError("--jobs takes 1 or more.") }
        guard !shardCounts.isEmpty, shardCounts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError(
                "--remote-shards takes counts of 1 or more, separated by commas; got '\(remoteShards)'.")
        }
    }

    private var shardCounts: [Int] {
        remoteShards.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) ?? 0 }
    }

    func run() async throws {
        #if DEBUG
            print(
                "warning: this is a debug build; run `swift run -c release bench test-remote` for real figures."
            )
        #endif
        let root = URL(
            fileURLWithPath: workspace ?? FileManager.default.currentDirectoryPath, isDirectory: true)
        let ribcage = try Self.ribcageNextToBench()
        let build = try await Shell.run("swift", ["build", "--build-tests"], in: root)
        guard build.succeeded else {
            throw ValidationError("swift build --build-tests failed:\n\(build.errorText)")
        }
        let engine = try await Shell.run(
            root.appendingPathComponent("Tools/reapi/engine").path, ["fetch"], in: root)
        guard engine.succeeded else {
            throw ValidationError("Tools/reapi/engine fetch failed:\n\(engine.errorText)")
        }

        let targets = try await ScratchFolder.with(prefix: "bench-test-remote") { folder in
            try await CasdServer.with(root: root, folder: folder) { casd in
                try await remoteTargets(root: root, ribcage: ribcage, endpoint: casd)
            }
        }
        print(
            "\nribcage test of \(targets.count) test targets here and through casd on this machine (--remote-jobs \(jobs)), median of \(repetitions):\n"
        )
        for shards in shardCounts {
            try await measure(targets, shards: shards, root: root, ribcage: ribcage)
        }
    }

    /// The test targets a remote run sends: the table's rows but those it says run here.
    private func remoteTargets(root: URL, ribcage: URL, endpoint: String) async throws -> [String] {
        let run = try await Self.timed(
            ribcage, ["test", "--skip-build", "--remote-executor", endpoint, "--remote-jobs", String(jobs)],
            in: root)
        let here = Set(
            run.errors.split(separator: "\n").compactMap { line in
                line.contains(" runs here: ") ? line.split(separator: " ").first.map(String.init) : nil
            })
        let rows = Self.rows(run.output)
        let targets = rows.keys.filter { !here.contains($0) }.sorted()
        guard !targets.isEmpty else {
            throw ValidationError("No test target runs remotely here:\n\(run.output)\n\(run.errors)")
        }
        return targets
    }

    private func measure(_ targets: [String], shards: Int, root: URL, ribcage: URL) async throws {
        var here: [Double] = []
        var cold: [Double] = []
        var kept: [Double] = []
        var hits: [Double] = []
        var ranHere: Set<String> = []
        let remote = ["--remote-jobs", String(jobs), "--remote-shards", String(shards)]
        for _ in 0..<repetitions {
            here.append(
                try await Self.timed(ribcage, ["test"] + targets + ["--skip-build"], in: root).seconds)
            try await ScratchFolder.with(prefix: "bench-test-remote") { folder in
                try await CasdServer.with(root: root, folder: folder) { casd in
                    let sent = ["test"] + targets + remote + ["--remote-executor", casd]
                    let first = try await Self.timed(ribcage, sent + ["--skip-build"], in: root)
                    cold.append(first.seconds)
                    ranHere.formUnion(
                        Self.rows(first.output).filter { !$0.value.contains("(remote") }.keys)
                    kept.append(try await Self.timed(ribcage, sent, in: root).seconds)
                    hits.append(try await Self.timed(ribcage, sent + ["--skip-build"], in: root).seconds)
                }
            }
        }
        let local = Self.median(here)
        func line(_ name: String, _ values: [Double], goal: String) -> String {
            let seconds = Self.median(values)
            return
                "\(name)\(String(format: "%7.2f s", seconds))  (\(String(format: "%.2f", seconds / local))× here\(goal))"
        }
        print("--remote-shards \(shards):")
        print("  here, ribcage test --skip-build:         \(String(format: "%7.2f s", local))")
        print(
            "  " + line("remote, casd empty:                     ", cold, goal: "; the goal is at most 1.3×"))
        print("  " + line("remote again, built first, results kept:", kept, goal: ""))
        print(
            "  " + line("remote, all from the action cache:      ", hits, goal: "")
                + "  (the goal is under 2 s)")
        if !ranHere.isEmpty {
            print(
                "  ran here after failing remotely, or not sent: \(ranHere.sorted().joined(separator: ", "))")
        }
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Each row of `ribcage test`'s table by its test target.
    private static func rows(_ output: String) -> [String: String] {
        var rows: [String: String] = [:]
        var inTable = false
        for line in output.split(separator: "\n") {
            if line.hasPrefix("Test target ") {
                inTable = true
            } else if inTable, let name = line.split(separator: " ").first, name.hasSuffix("Tests") {
                rows[String(name)] = String(line)
            } else if inTable {
                inTable = false
            }
        }
        return rows
    }

    private static func ribcageNextToBench() throws -> URL {
        let ribcage = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("ribcage")
        guard FileManager.default.isExecutableFile(atPath: ribcage.path) else {
            throw ValidationError(
                "No ribcage next to bench at \(ribcage.path): run `swift build -c release --product ribcage` first."
            )
        }
        return ribcage
    }

    private struct Run {
        var seconds: Double
        var output: String
        var errors: String
    }

    /// One run of `ribcage`, timed. Failing tests (exit 1) are a result; anything else stops the
    /// benchmark.
    private static func timed(_ ribcage: URL, _ arguments: [String], in root: URL) async throws -> Run {
        let clock = ContinuousClock()
        let start = clock.now
        let run = try await Shell.run(ribcage.path, arguments, in: root)
        let seconds = Measurement.seconds(clock.now - start)
        guard run.status == 0 || (run.status == 1 && !run.wasSignalled) else {
            throw ValidationError(
                "ribcage \(arguments.joined(separator: " ")) \(run.terminationDescription):\n\(run.errorText)"
            )
        }
        return Run(seconds: seconds, output: run.outputText, errors: run.errorText)
    }
}

/// buildbox-casd started by `Tools/reapi/engine serve` on a Unix socket in a scratch folder, in a
/// process group of its own so that stopping it stops the runners it started.
private enum CasdServer {
    static func with<T: Sendable>(root: URL, folder: URL, _ body: (String) async throws -> T) async throws
        -> T
    {
        try await DedicatedThread.run(named: "bench-casd-folder") {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let socket = folder.appendingPathComponent("casd.sock").path
        let endpoint = "unix:\(socket)"
        var options = PlatformOptions()
        options.processGroupID = 0
        let result = try await Subprocess.run(
            .path(FilePath(root.appendingPathComponent("Tools/reapi/engine").path)),
            arguments: ["serve", endpoint, folder.appendingPathComponent("cache").path],
            platformOptions: options, input: .none, output: .discarded, error: .discarded
        ) { execution -> Result<T, any Error> in
            let group = execution.processIdentifier.value
            let outcome: Result<T, any Error>
            do {
                try await waitUntilServing(endpoint)
                outcome = .success(try await body(endpoint))
            } catch {
                outcome = .failure(error)
            }
            _ = Glibc.kill(-group, SIGKILL)
            return outcome
        }
        return try result.closureResult.get()
    }

    private static func waitUntilServing(_ address: String) async throws {
        let endpoint = try RemoteEndpoint(address)
        for _ in 0..<200 {
            do {
                _ = try await RemoteExecutionClient.withClient(endpoint) { try await $0.capabilities() }
                return
            } catch let error as RemoteExecutionError {
                guard case .unreachable = error else { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw ValidationError("casd did not answer on \(address) within 20 s")
    }
}
