import BlockingWork
import Foundation

extension TestRunner {
    /// How one suite's `swift test` is run.
    private enum Pass: Sendable {
        /// Under `strace`, to record what it reads.
        case traced
        /// Without the trace, from the start: an earlier run found it fails only when traced.
        case untraced
        /// Without the trace, after it failed under it.
        case retry
    }

    /// One `swift test` of one suite, ended.
    private struct Finished: Sendable {
        var suite: TestSuite
        var pass: Pass
        var outcome: Outcome
        /// Where its trace was written, when it ran traced.
        var trace: URL?
    }

    /// What one task of ``runEachAlone`` came to.
    private enum Event: Sendable {
        /// A suite's `swift test` ended: its slot is free.
        case ran(Finished)
        /// A green suite's trace was read (or could not be).
        case read(testTarget: String, Result<InputTrace, any Error>)
    }

    /// The trace at `trace`, read on a thread of its own.
    ///
    /// Read as soon as its suite ends, in a task of its own beside the suites still running (the
    /// next suite takes the slot at once): read at the end, one after another, the traces of
    /// this workspace's suites (70–90 MB) added about 35 s after the last test had ended.
    private static func readTrace(_ trace: URL) async -> Result<InputTrace, any Error> {
        await DedicatedThread.run(named: "ribcage-test-trace") {
            Result { try InputTrace(contentsOf: trace) }
        }
    }

    /// Runs each of `suites` in a `swift test --ignore-lock` of its own, as many at once as
    /// there are cores, the longest first when `weights` says: under `strace` (``InputTrace``)
    /// when `tracing`, so what each one reads at run time is known apart and the test cache can
    /// keep it, and inside its ``SuiteSandbox`` when `sandboxes` has one.
    ///
    /// A suite that does not pass under the trace runs again without it, in the next free slot
    /// rather than after all the others, and that run's result stands, untraced (so it is never
    /// stored): a test that traces or stops processes itself, or races a deadline, can fail under
    /// `ptrace` only. The suites in `untraced` are known to (``UntraceableSuites``) and run
    /// without the trace from the start, beside the traced ones, so they do not run twice.
    ///
    /// - Parameter note: Told of each suite that failed traced and passed untraced, and of each
    ///   that failed sandboxed, with the package's files it looked for and could not see.
    package func runEachAlone(
        _ suites: [TestSuite], weights: [String: Double] = [:], tracing: Bool, untraced: Set<String> = [],
        sandboxes: [String: SuiteSandbox] = [:],
        note: @Sendable (String) -> Void
    ) async throws -> Run {
        try FileManager.default.createDirectory(at: reportsDirectory, withIntermediateDirectories: true)
        let ordered = suites.enumerated().sorted {
            (weights[$0.element.testTarget] ?? 0, -$0.offset) > (
                weights[$1.element.testTarget] ?? 0, -$1.offset
            )
        }.map(\.element)
        var prefixes: [String: [String]] = [:]
        for (testTarget, sandbox) in sandboxes {
            prefixes[testTarget] = try sandbox.command(reportsDirectory: reportsDirectory)
        }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let startGate = SwiftPMStartGate()
        let (outcomes, reads) = try await withThrowingTaskGroup(of: Event.self) { group in
            var pending = ordered.map {
                ($0, tracing && !untraced.contains($0.testTarget) ? Pass.traced : .untraced)
            }[...]
            func start(_ suite: TestSuite, _ pass: Pass) {
                let trace =
                    pass == .traced
                    ? reportsDirectory.appendingPathComponent("\(suite.testTarget).strace") : nil
                let name = suite.testTarget + (pass == .retry ? "-untraced" : "")
                let sandbox = prefixes[suite.testTarget]
                group.addTask {
                    var attempt = 1
                    while true {
                        let outcome = try await runOnce(
                            [suite], filter: TestSuite.filter(for: [suite]), name: name, traceTo: trace,
                            alone: true, sandbox: sandbox, startGate: startGate)
                        // The gate keeps two `swift test`s out of SwiftPM's start-up at once; if
                        // one still found the build folder busy and ran nothing, that is no
                        // result: run it again.
                        guard attempt < 5, outcome.testCases.isEmpty,
                            await Self.foundBuildFolderBusy(in: outcome.log)
                        else {
                            return .ran(Finished(suite: suite, pass: pass, outcome: outcome, trace: trace))
                        }
                        attempt += 1
                    }
                }
            }
            for _ in 0..<width {
                guard let (suite, pass) = pending.popFirst() else { break }
                start(suite, pass)
            }
            var done: [String: [Finished]] = [:]
            var reads: [String: Result<InputTrace, any Error>] = [:]
            for try await event in group {
                guard case .ran(let finished) = event else {
                    if case .read(let testTarget, let read) = event { reads[testTarget] = read }
                    continue
                }
                let (suite, pass) = (finished.suite, finished.pass)
                done[suite.testTarget, default: []].append(finished)
                let result = finished.outcome.results(for: [suite])[0]
                let green = result.failed == 0 && result.runnerFailure == nil
                if pass == .traced, !green {
                    // The rerun goes next: a slot left idle while it waits is the time lost.
                    pending.insert((suite, .retry), at: pending.startIndex)
                }
                if pass == .traced, green, let trace = finished.trace {
                    // Only a green run is stored, so only its trace is read.
                    group.addTask { .read(testTarget: suite.testTarget, await Self.readTrace(trace)) }
                }
                if let (next, nextPass) = pending.popFirst() { start(next, nextPass) }
            }
            return (done, reads)
        }
        var run = Run(results: [], logs: [])
        for suite in suites {
            let passes = outcomes[suite.testTarget] ?? []
            guard let last = passes.last else { continue }
            let result = last.outcome.results(for: [suite])[0]
            run.results.append(result)
            run.logs += passes.map(\.outcome.log)
            let green = result.failed == 0 && result.runnerFailure == nil
            switch last.pass == .traced ? reads[suite.testTarget] : nil {
            case .success(let trace): run.inputTraces[suite.testTarget] = trace
            case .failure(let error):
                note(
                    "warning: test cache: cannot read \(suite.testTarget)'s trace \(last.trace?.path ?? ""): \(error)"
                )
            case nil: break
            }
            if green, last.pass == .retry {
                run.passedOnlyUntraced.append(suite.testTarget)
                note(
                    "\(suite.testTarget) failed under strace and passed without it: its result is the "
                        + "untraced run's, it is not cached, and later runs start it untraced "
                        + "(does a test trace, stop or time processes?)")
            }
            if !green, let sandbox = sandboxes[suite.testTarget] {
                note(
                    await sandbox.failureNote(
                        traces: passes.compactMap(\.trace), logs: passes.map(\.outcome.log)))
            }
        }
        return run
    }
}
