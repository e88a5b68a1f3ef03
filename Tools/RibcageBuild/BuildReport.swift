import Foundation

/// What `ribcage build` prints: a row per module, the failures, the timings and the closing line.
package struct BuildReport: Sendable, Equatable, Codable {
    /// `debug` or `release`.
    package var configuration: String
    /// Each step's result, in the order built.
    package var modules: [ModuleBuildResult]
    /// The chain of dependent modules whose own times add up to the longest.
    package var criticalPath: CriticalPath

    /// A chain of modules, each depending on the one before it.
    package struct CriticalPath: Sendable, Equatable, Codable {
        /// The modules, dependencies first.
        package var modules: [String]
        /// The sum of their own times.
        package var seconds: Double
    }

    /// A report of `results`, with the critical path through `plan`.
    package init(configuration: String, plan: BuildPlan, results: [ModuleBuildResult]) {
        self.configuration = configuration
        self.modules = results
        self.criticalPath = Self.criticalPath(plan: plan, seconds: Self.ownCompileTimes(results))
    }

    /// Each module's own compile time in this run: its step's time when it built something, and
    /// zero when it was up to date, failed or was blocked, since then it compiled nothing that
    /// a full build would keep.
    static func ownCompileTimes(_ results: [ModuleBuildResult]) -> [String: Double] {
        Dictionary(
            results.map { ($0.name, $0.status == .built ? $0.seconds : 0) },
            uniquingKeysWith: { first, _ in first })
    }

    /// The longest chain by summed `seconds`: steps are in dependency order, so one pass that
    /// keeps, for each step, the longest chain ending there finds it.
    package static func criticalPath(plan: BuildPlan, seconds: [String: Double]) -> CriticalPath {
        var best: [String: (total: Double, previous: String?)] = [:]
        for step in plan.steps {
            // A dependency that took no time (up to date) is no link of the chain.
            let heaviest = step.dependencies.compactMap { name in best[name].map { (name, $0.total) } }
                .filter { $0.1 > 0 }
                .max { ($0.1, $1.0) < ($1.1, $0.0) }
            best[step.name] = ((heaviest?.1 ?? 0) + (seconds[step.name] ?? 0), heaviest?.0)
        }
        guard
            let end = plan.steps.map(\.name).max(by: {
                (best[$0]?.total ?? 0, $1) < (best[$1]?.total ?? 0, $0)
            })
        else { return CriticalPath(modules: [], seconds: 0) }
        var chain: [String] = []
        var current: String? = end
        while let name = current {
            chain.append(name)
            current = best[name]?.previous
        }
        return CriticalPath(modules: chain.reversed(), seconds: best[end]?.total ?? 0)
    }

    /// How many modules ended with `status`.
    package func count(_ status: ModuleBuildResult.Status) -> Int {
        modules.count { $0.status == status }
    }

    /// True when a module failed.
    package var failed: Bool { count(.failed) > 0 }

    // MARK: - Text

    /// The table: module, its own time and what happened, one row per step.
    package var table: String {
        let width = max("Module".count, modules.map { label($0).count }.max() ?? 0)
        var text = pad("Module", width) + "  " + pad("Time", 9) + "  Status\n"
        for module in modules {
            let time = module.status == .blocked ? "—" : Self.format(seconds: module.seconds)
            text += pad(label(module), width) + "  " + pad(time, 9) + "  " + status(module) + "\n"
        }
        return text
    }

    /// The compiler's errors of each failed module and what it blocked.
    package var failures: String {
        var text = ""
        for module in modules where module.status == .failed {
            text += "\n✘ \(module.name) failed"
            text += module.blocks.isEmpty ? "\n" : ", blocking \(module.blocks.joined(separator: ", "))\n"
            for error in module.errors.prefix(5) { text += "  \(error)\n" }
            if module.errors.count > 5 { text += "  … and \(module.errors.count - 5) more errors\n" }
            if let tail = module.logTail {
                for line in tail.split(separator: "\n") { text += "  | \(line)\n" }
            }
        }
        return text
    }

    /// The slowest modules first, by their own compile time, then the critical path.
    package var timings: String {
        let own = Self.ownCompileTimes(modules)
        let built = modules.filter { $0.status == .built }.sorted {
            ($0.seconds, $1.name) > ($1.seconds, $0.name)
        }
        var text = "\nOwn compile time, slowest first:\n"
        let width = built.map { label($0).count }.max() ?? 0
        let total = own.values.reduce(0, +)
        for module in built {
            let share = total > 0 ? Int((module.seconds / total * 100).rounded()) : 0
            text +=
                "  " + pad(label(module), width) + "  " + pad(Self.format(seconds: module.seconds), 9)
                + "  \(share)%\n"
        }
        if built.isEmpty { text += "  (nothing was compiled: every module was up to date)\n" }
        text += "\nCritical path: \(Self.format(seconds: criticalPath.seconds)) of "
        text += "\(Self.format(seconds: total)) in all\n"
        text +=
            "  "
            + criticalPath.modules.map { name in
                "\(name) (\(Self.format(seconds: own[name] ?? 0)))"
            }.joined(separator: " → ") + "\n"
        let upToDate = count(.upToDate)
        if upToDate > 0 {
            text += "note: \(upToDate) modules were up to date and count 0 s; for a full profile, "
            text += "run after `swift package clean`.\n"
        }
        return text
    }

    /// `N built, N up to date, N failed`, and the blocked ones when there are any.
    package var closingLine: String {
        var line = "\(count(.built)) built, \(count(.upToDate)) up to date, \(count(.failed)) failed"
        let blocked = count(.blocked)
        if blocked > 0 { line += ", \(blocked) blocked" }
        return line
    }

    /// The whole report as pretty JSON, for CI.
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    private func label(_ module: ModuleBuildResult) -> String {
        module.kind == .externalProduct ? "\(module.name) (product)" : module.name
    }

    private func status(_ module: ModuleBuildResult) -> String {
        switch module.status {
        case .built: "built"
        case .upToDate: "up to date"
        case .failed: "FAILED"
        case .blocked: "blocked by \(module.blockedBy ?? "a failed module")"
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
    }

    /// `0.41 s`, `12.3 s`, `2 min 05 s`.
    static func format(seconds: Double) -> String {
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        return String(format: "%d min %02d s", whole / 60, whole % 60)
    }
}
