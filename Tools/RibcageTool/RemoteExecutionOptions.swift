import ArgumentParser
import BlockingWork
import Foundation
import RemoteExecution
import RibcageLint
import RibcagePackage
import RibcageTesting

/// `ribcage test`'s options for running test targets on a REAPI server, and what the command
/// does with them.
struct RemoteExecutionOptions: ParsableArguments {
    @Option(
        help: """
            Run the test targets that can as actions on this Remote Execution API server \
            (grpc://HOST:PORT or unix:PATH: buildbox-casd, BuildGrid, Buildbarn…); its action cache \
            answers an unchanged one. Those it cannot take, or does not answer, run here.
            """)
    var remoteExecutor: String?

    @Option(
        help:
            "The instance name on the --remote-executor server and on a REAPI --cache-url alike, as Bazel's --remote_instance_name (default: the server's default instance)."
    )
    var remoteInstance = ""

    @Option(
        help:
            "With --remote-executor: how many test targets run remotely at once (default: this machine's cores)."
    )
    var remoteJobs: Int?

    @Option(
        help:
            "With --remote-executor: the longest one action (a test target, or a shard of one) may run on a worker, in seconds."
    )
    var remoteTimeout: Double = 900

    @Option(
        help: """
            With --remote-executor: split each remote test target into up to this many actions, \
            by its top-level suite types, so a large one spreads over several workers.
            """)
    var remoteShards = 1

    func validate() throws {
        if let remoteExecutor {
            do {
                _ = try RemoteEndpoint(remoteExecutor)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if let remoteJobs, remoteJobs < 1 { throw ValidationError("--remote-jobs takes 1 or more.") }
        if remoteShards < 1 { throw ValidationError("--remote-shards takes 1 or more.") }
        guard remoteTimeout > 0, remoteTimeout.isFinite else {
            throw ValidationError("--remote-timeout takes a positive number of seconds.")
        }
    }

    /// The remote part of a run, planned: which suites go to the server, which stay, and the
    /// runner that sends them.
    struct Prepared: Sendable {
        var plan: RemoteSuitePlan
        var runner: RemoteTestRunner
    }

    /// Plans which of `suites` run remotely, once the tests are built; nil without
    /// `--remote-executor`. Says which stay here and why.
    ///
    /// - Parameter keysBeforeBuild: the suites' keys before this run built the tests (none with
    ///   `--skip-build`): a suite whose key is the same now may keep its green result under it.
    func prepare(
        _ suites: [TestSuite], root: URL, package: DescribedPackage, session: TestCacheSession,
        keysBeforeBuild: [String: String], runner localRunner: TestRunner
    ) async throws -> Prepared? {
        guard let remoteExecutor else { return nil }
        let endpoint = try RemoteEndpoint(remoteExecutor)
        let inputs = session.inputs
        var recorded: [String: [RecordedInput]] = [:]
        for suite in suites {
            do {
                recorded[suite.testTarget] = try await session.cache.latestEntry(of: suite.testTarget)?
                    .recordedInputs
            } catch {
                StandardError.write(
                    "warning: remote execution: cannot read \(suite.testTarget)'s last cache entry, so its action "
                        + "holds its targets' folders only: \(error)\n")
            }
        }
        let declaredLocal = try await DedicatedThread.run(named: "ribcage-remote-plan") {
            try ProjectManifest.load(packageAt: root)?.localOnlyTestTargets ?? [:]
        }
        let keys = try await inputs.keysOffThePool(for: suites.map(\.testTarget)).mapValues(\.hash)
        let buildFolder = root.appendingPathComponent(".build/debug", isDirectory: true)
        let recordedInputs = recorded
        let storable = Set(keys.filter { keysBeforeBuild[$0.key] == $0.value }.keys)
        let shards = remoteShards
        let plan = try await DedicatedThread.run(named: "ribcage-remote-plan") {
            var plan = try RemoteSuitePlan(
                suites: suites, inputs: inputs, keys: keys, storable: storable, recorded: recordedInputs,
                declaredLocal: declaredLocal,
                buildFolder: buildFolder,
                importedModules: {
                    ImportScanner.references(in: $0).filter { $0.form == .import }.map(\.module)
                })
            try plan.split(into: shards, inputs: inputs) { module, sources in
                var outline = TestSuiteOutline()
                for source in sources { outline.add(TestSuiteOutline(source: source, module: module)) }
                return outline.testsByDeclaredType
            }
            return plan
        }
        for local in plan.local {
            StandardError.write("\(local.suite.testTarget) runs here: \(local.reason)\n")
        }
        let version = try await Shell.run("swift", ["--version"])
        let toolchainBin = Toolchain.installFolder().map { $0.appendingPathComponent("bin").path + ":" } ?? ""
        // As Bazel's strict action environment: a PATH of the image's folders, not this shell's,
        // so the key is the same for everyone; then the declared test inputs that are set.
        var environment = ["PATH": toolchainBin + "/usr/local/bin:/usr/bin:/bin"]
        for variable in inputs.declaredVariables {
            if let value = ProcessInfo.processInfo.environment[variable] { environment[variable] = value }
        }
        let runner = RemoteTestRunner(
            endpoint: endpoint, instanceName: remoteInstance,
            jobs: remoteJobs ?? ProcessInfo.processInfo.activeProcessorCount,
            timeout: .milliseconds(Int(remoteTimeout * 1000)), packageRoot: root,
            bundle: buildFolder.appendingPathComponent("\(package.name)PackageTests.xctest"),
            reportsDirectory: localRunner.reportsDirectory, environment: environment,
            workerImage: RemoteTestRunner.workerImage(toolchain: version.outputText),
            skipPattern: localRunner.skipPattern)
        return Prepared(plan: plan, runner: runner)
    }
}
