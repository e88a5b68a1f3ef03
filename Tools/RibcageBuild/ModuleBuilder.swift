import Foundation
import RibcagePackage

/// Runs a ``BuildPlan`` one `swift build --target` (or `--product`) at a time.
///
/// Steps run one after another, not side by side: each `swift build` already uses every core
/// for the files of its module, and a step that starts with its dependencies built measures
/// only its own work. That is what makes the per-module times and the critical path honest; the
/// cost is the parallelism between independent modules, which a plain `swift build` keeps.
package struct ModuleBuilder: Sendable {
    /// The package's root folder.
    package var packageRoot: URL
    /// `debug` or `release`.
    package var configuration: String
    /// Given SwiftPM's whole output of each step, when the caller wants to show it (`--verbose`).
    package var showLog: (@Sendable (String) -> Void)?

    /// Creates a builder for the package at `packageRoot`.
    package init(
        packageRoot: URL, configuration: String = "debug", showLog: (@Sendable (String) -> Void)? = nil
    ) {
        self.packageRoot = packageRoot
        self.configuration = configuration
        self.showLog = showLog
    }

    /// Builds every step of `plan` in order; the dependents of a failed step are not attempted.
    ///
    /// - Parameter progress: Called with each result as soon as its step ends.
    package func build(
        _ plan: BuildPlan, progress: (ModuleBuildResult) -> Void = { _ in }
    ) async throws -> [ModuleBuildResult] {
        var results: [ModuleBuildResult] = []
        var blockedBy: [String: String] = [:]
        for step in plan.steps {
            var result: ModuleBuildResult
            if let cause = blockedBy[step.name] {
                result = ModuleBuildResult(
                    name: step.name, kind: step.kind, status: .blocked, seconds: 0, blockedBy: cause)
            } else {
                result = try await build(step)
                if result.status == .failed {
                    result.blocks = plan.dependents(of: step.name)
                    for dependent in result.blocks where blockedBy[dependent] == nil {
                        blockedBy[dependent] = step.name
                    }
                }
            }
            results.append(result)
            progress(result)
        }
        return results
    }

    /// Builds one step and tells from SwiftPM's output whether it compiled anything.
    package func build(_ step: BuildPlan.Step) async throws -> ModuleBuildResult {
        let clock = ContinuousClock()
        let start = clock.now
        let run = try await Shell.run(
            "swift", ["build", "-c", configuration, "--target", step.name], in: packageRoot,
            output: .capture)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let log = run.outputText + run.errorText
        showLog?(log)

        guard run.succeeded else {
            let errors = CompilerDiagnostic.errors(in: log)
            let tail = log.split(separator: "\n").suffix(20).joined(separator: "\n")
            return ModuleBuildResult(
                name: step.name, kind: step.kind, status: .failed, seconds: seconds, errors: errors,
                logTail: errors.isEmpty ? tail : nil, wallSeconds: seconds)
        }
        return ModuleBuildResult(
            name: step.name, kind: step.kind, status: Self.didWork(log) ? .built : .upToDate,
            seconds: Self.reportedSeconds(log) ?? seconds, wallSeconds: seconds)
    }

    /// The seconds in SwiftPM's closing line, `Build of target: 'And' complete! (2.31s)`.
    package static func reportedSeconds(_ log: String) -> Double? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains(" complete! (") }),
            let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close
        else { return nil }
        // Some versions print `(0 warnings, 4.92s)`: the figure is the last field.
        let field = line[line.index(after: open)..<close].split(separator: " ").last ?? ""
        return Double(field.hasSuffix("s") ? field.dropLast() : field)
    }

    /// True when a SwiftPM log shows a compile, module emission or link: SwiftPM prints
    /// `[3/7] Compiling And And.swift`, `Emitting module And`, `Linking ribcage`, and none of them
    /// when everything was up to date.
    package static func didWork(_ log: String) -> Bool {
        log.split(separator: "\n").contains { line in
            let text = line.drop { $0 != "]" }.dropFirst().drop { $0 == " " }
            return text.hasPrefix("Compiling ") || text.hasPrefix("Emitting module ")
                || text.hasPrefix("Linking ") || text.hasPrefix("Compiling plugin ")
        }
    }
}
