import BlockingWork
import Foundation
import RibcagePackage

/// Lets one `swift test` at a time through SwiftPM's start-up when several run at once on one
/// build folder (``TestRunner/runEachAlone(_:weights:tracing:untraced:sandboxes:note:)``).
///
/// Each `swift test --skip-build` still plans: llbuild opens the build database for writing and
/// may write the build manifest (`.build/debug.yaml`) again, truncating it first. Two at once
/// (`--ignore-lock`) meet there: one finds the database locked, or reads a manifest the other
/// is halfway through writing ("unexpected top-level node", "unable to load build file"), and
/// runs no test at all. Once SwiftPM has started the test bundle it touches the build folder
/// no more, so the next one may start then: the tests still run side by side, only the few
/// seconds of planning take turns.
package actor SwiftPMStartGate {
    private var isOpen = true
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Runs `run` when the gate is free; the gate opens for the next one when the process that
    /// `run` starts (and reports through the closure it is given) has started a program whose
    /// path ends with `bundleSuffix`, or has ended, or `run` has returned or thrown.
    package func admit<Value: Sendable>(
        startingBundleEndingWith bundleSuffix: String,
        _ run: (_ started: @escaping @Sendable (pid_t) async -> Void) async throws -> Value
    ) async rethrows -> Value {
        if isOpen {
            isOpen = false
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        let turn = Turn(gate: self)
        do {
            let value = try await run { pid in
                _ = await Self.waitForDescendant(of: pid, runningProgramEndingWith: bundleSuffix)
                await turn.end()
            }
            await turn.end()
            return value
        } catch {
            await turn.end()
            throw error
        }
    }

    private func open() {
        if waiting.isEmpty { isOpen = true } else { waiting.removeFirst().resume() }
    }

    /// One process's time at the gate, ended once whichever way it ends first.
    private actor Turn {
        let gate: SwiftPMStartGate
        var ended = false

        init(gate: SwiftPMStartGate) { self.gate = gate }

        func end() async {
            guard !ended else { return }
            ended = true
            await gate.open()
        }
    }

    /// Waits, on a thread of its own, until a process under `root` runs a program whose path
    /// ends with `programSuffix`, or `root` has ended, or `limit` has passed; polled every
    /// 20 ms through `/proc`. Returns whether the program was seen.
    ///
    /// A limit that passes only costs the overlap the gate is there to prevent: it is a
    /// backstop for a SwiftPM that never starts the bundle, not an expected path.
    package static func waitForDescendant(
        of root: pid_t, runningProgramEndingWith programSuffix: String, limit: Duration = .seconds(300)
    ) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: limit)
        return await DedicatedThread.run(named: "ribcage-start-gate") {
            while ContinuousClock.now < deadline {
                switch ProcessTable.current().descendant(of: root, runningProgramEndingWith: programSuffix) {
                case .found: return true
                case .rootEnded: return false
                case .notYet: usleep(20_000)
                }
            }
            return false
        }
    }
}

extension ProcessTable {
    /// What a look below a process for a program found.
    package enum DescendantSearch: Equatable, Sendable {
        case found
        case notYet
        case rootEnded
    }

    /// Whether a process under `root` (not `root` itself) was started as a path ending with
    /// `programSuffix` (its first argument, as `execve` was given it). Without a readable
    /// `/proc` the table is empty and `root` counts as ended: the gate opens at once, runs start
    /// as they did before the gate, and one that still meets another's start-up is run again
    /// from its log (`foundBuildFolderBusy`). Nothing the user must act on, so nothing is said.
    package func descendant(of root: pid_t, runningProgramEndingWith programSuffix: String)
        -> DescendantSearch
    {
        guard processes.contains(where: { $0.id == root }) else { return .rootEnded }
        // A process that ended meanwhile has no arguments left: it is not the bundle.
        let found = descendants(of: root).contains { pid in
            ProcessTable.arguments(of: pid)?.first?.hasSuffix(programSuffix) == true
        }
        return found ? .found : .notYet
    }
}
