import ArgumentParser
import Foundation
import RibcagePackage

/// `bench test`: `ribcage test` against `swift test --parallel` on the same package, warm, and
/// the one-`swift test`-per-target strategy ribcage used before, to show where time went.
///
/// By default the package is a fresh clone of swift-argument-parser 1.8.2; `--package-path`
/// measures an existing package as it is (this workspace: `--package-path .`).
struct TestRunnerBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract:
            "ribcage test against swift test --parallel on the same package (default: swift-argument-parser 1.8.2), warm."
    )

    @Option(help: "Repetitions of each; the median is reported.")
    var repetitions = 5

    @Option(help: "The local git copy of swift-argument-parser.")
    var repository = "/opt/swift-packages/apple/swift-argument-parser.git"

    @Option(help: "The version to check out.")
    var version = "1.8.2"

    @Option(
        help:
            "Measure this package as it is instead of a clone (its tests are built first; no warm-up runs)."
    )
    var packagePath: String?

    @Flag(inversion: .prefixedNo, help: "Also time one swift test per test target, as ribcage did before.")
    var perTarget = true

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run() async throws {
        let workspace = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../..").standardizedFileURL
        let ribcage = try await Self.releaseRibcage(workspace: workspace)
        // The clone and its build folder hold thousands of files: removed off the pool.
        try await ScratchFolder.with(prefix: "bench-test") { try await measure(ribcage: ribcage, clone: $0) }
    }

    /// Times the runs on the package at `packagePath`, else on a fresh clone at `clone`.
    private func measure(ribcage: URL, clone: URL) async throws {
        let root: URL
        if let packagePath {
            root = URL(fileURLWithPath: packagePath, isDirectory: true).standardizedFileURL
        } else {
            root = clone
            try await Self.check(
                Shell.run(
                    "git",
                    [
                        "-c", "advice.detachedHead=false", "clone", "-q", "--branch", version, repository,
                        root.path,
                    ]))
        }
        // Warm: the tests are built, and (for a clone) each command has run once.
        try await Self.check(Shell.run("swift", ["build", "--build-tests"], in: root))
        let describe = try await Shell.run("swift", ["package", "describe", "--type", "json"], in: root)
        let targets = try PackageLoader.decodeDescription(describe.standardOutput, root: root).targets
            .filter(\.isTest).map(\.name)

        // A red run is timed like a green one, but reported: the ratio only means something
        // when both sides ran the same, passing tests.
        var failures: [String: Int] = [:]
        let peer = { () async throws -> Void in
            let run = try await Shell.run("swift", ["test", "--parallel"], in: root)
            if !run.succeeded { failures["peer", default: 0] += 1 }
        }
        let ours = { () async throws -> Void in
            let run = try await Shell.run(ribcage.path, ["test", "--path", root.path])
            if !run.succeeded { failures["ours", default: 0] += 1 }
        }
        // With retries on and a JUnit report, which cost nothing extra while nothing fails.
        let junit = root.appendingPathComponent(".build/bench-junit.xml").path
        let oursRetrying = { () async throws -> Void in
            let run = try await Shell.run(
                ribcage.path, ["test", "--path", root.path, "--retry", "1", "--junit-output", junit])
            if !run.succeeded { failures["oursRetrying", default: 0] += 1 }
        }
        // What `ribcage test` did before: one `swift test` per test target, each re-reading the build graph.
        let perTargetRun = { () async throws -> Void in
            _ = try await Shell.run("swift", ["build", "--build-tests"], in: root)
            for target in targets {
                let run = try await Shell.run(
                    "swift", ["test", "--skip-build", "--parallel", "--filter", "^\(target)[./]"], in: root)
                if !run.succeeded { failures["perTarget", default: 0] += 1 }
            }
        }
        if packagePath == nil {
            for warmUp in [peer, ours] { try await warmUp() }
            failures = [:]
        }
        var samples: [String: [Double]] = [:]
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            // Interleaved, so drift in the machine's load falls on all three alike.
            var bodies = [("peer", peer), ("ours", ours), ("oursRetrying", oursRetrying)]
            if perTarget { bodies.append(("perTarget", perTargetRun)) }
            for (name, body) in bodies {
                let start = clock.now
                try await body()
                samples[name, default: []].append(Measurement.seconds(clock.now - start))
            }
        }
        let median = { (name: String) -> Double in
            let sorted = (samples[name] ?? []).sorted()
            return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        }
        let peerTime = median("peer")
        let name = packagePath == nil ? "swift-argument-parser \(version)" : root.lastPathComponent
        print(
            "ribcage test on \(name) (\(targets.count) test targets, tests built), median of \(repetitions)\n"
        )
        print("swift test --parallel:                    \(Self.seconds(peerTime))")
        print(
            "ribcage test (one swift test --parallel): \(Self.seconds(median("ours")))  \(Measurement.ratio(median("ours") / peerTime))"
        )
        print(
            "ribcage test --retry 1 --junit-output:    \(Self.seconds(median("oursRetrying")))  \(Measurement.ratio(median("oursRetrying") / median("ours"))) of ribcage test"
        )
        if perTarget {
            print(
                "one swift test per test target (before):  \(Self.seconds(median("perTarget")))  \(Measurement.ratio(median("perTarget") / peerTime))"
            )
        }
        // The retried run's report holds every case of the package, as a cached run would store them.
        let recording = try OutcomeRecording(junitReport: URL(fileURLWithPath: junit))
        let extra = try await recording.medianExtraSeconds(repetitions: 21)
        print(
            "outcomes recorded (cases, red slot):     \(String(format: "%+.2f ms", 1000 * extra)) for \(recording.caseCount) cases in \(recording.casesByTarget.count) suites, \(String(format: "%.3f%%", 100 * extra / median("ours"))) of ribcage test (median of 21)"
        )
        for (name, count) in failures.sorted(by: { $0.key < $1.key }) {
            print("warning: \(count) \(name) run\(count == 1 ? "" : "s") had failing tests or failed to run")
        }
    }

    /// The release `ribcage` next to this benchmark, built first if it is not there.
    static func releaseRibcage(workspace: URL) async throws -> URL {
        try await check(
            Shell.run("swift", ["build", "-c", "release", "--product", "ribcage"], in: workspace))
        let bin = try await Shell.run("swift", ["build", "-c", "release", "--show-bin-path"], in: workspace)
        return URL(fileURLWithPath: bin.outputText.trimmingCharacters(in: .whitespacesAndNewlines))
            .appendingPathComponent("ribcage")
    }

    @discardableResult
    static func check(_ result: ProcessResult) throws -> ProcessResult {
        guard result.succeeded else { throw Failure(description: result.errorText + result.outputText) }
        return result
    }

    static func seconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
