import BlockingWork
import Foundation
import RibcageGraph
import RibcagePackage

/// Which test suites a change affects: the test targets whose files changed, or that depend,
/// directly or through other targets, on a target whose files changed. A change to what every
/// target builds from — `Package.swift`, a `Package@swift-*.swift`, `Package.resolved` (the
/// dependencies' versions) or `Project.swift.md` — affects all.
package struct AffectedSelection: Sendable, Equatable {
    /// A selected suite and why.
    package struct Choice: Sendable, Equatable {
        package var suite: TestSuite
        /// Why it runs, e.g. `changed: Modules/And/And.swift` or `depends on And (changed)`.
        package var reason: String
    }

    /// The selected suites, in the index's order.
    package var choices: [Choice]

    /// Selects from `index` the suites that `changedFiles` (paths relative to the root) affect.
    package init(package: DescribedPackage, index: TestSuiteIndex, changedFiles: [String]) {
        if let manifestFile = changedFiles.first(where: ChangeImpact.affectsEverything) {
            choices = index.suites.map {
                Choice(suite: $0, reason: "\(manifestFile) changed: everything is affected")
            }
            return
        }
        let reasons = ChangeImpact.affectedTargets(package: package, changedFiles: changedFiles)
        choices = index.suites.compactMap { suite in
            guard let reason = reasons[suite.testTarget] else { return nil }
            return Choice(suite: suite, reason: reason)
        }
    }
}

/// Splits suites into shards of about equal running time, for a CI matrix.
package enum TestSharding {
    /// Shard `index` (1-based) of `count`: suites are dealt, heaviest first, to the lightest shard.
    /// Every suite lands in exactly one shard.
    ///
    /// - Parameter weights: Seconds from the last run, or test counts, per test target.
    package static func shard(
        _ suites: [TestSuite], index: Int, of count: Int, weights: [String: Double]
    ) -> [TestSuite] {
        precondition(count >= 1 && (1...count).contains(index), "validated by the command")
        var loads = Array(repeating: 0.0, count: count)
        var assignment: [Int: [TestSuite]] = [:]
        let ordered = suites.sorted {
            (weights[$0.testTarget] ?? 1, $1.testTarget) > (weights[$1.testTarget] ?? 1, $0.testTarget)
        }
        for suite in ordered {
            let lightest = loads.indices.min { (loads[$0], $0) < (loads[$1], $1) } ?? 0
            loads[lightest] += weights[suite.testTarget] ?? 1
            assignment[lightest, default: []].append(suite)
        }
        let mine = Set(assignment[index - 1] ?? [])
        return suites.filter { mine.contains($0) }
    }

    /// Where `ribcage test` keeps the last run's seconds per test target.
    package static func durationsFile(in root: URL) -> URL {
        root.appendingPathComponent(".build/ribcage-test-durations.json")
    }

    /// The weights to balance by: the last run's durations, else the number of tests found in each
    /// test target's sources.
    package static func weights(for suites: [TestSuite], package: DescribedPackage, root: URL)
        -> [String: Double]
    {
        if let data = try? Data(contentsOf: durationsFile(in: root)),
            let durations = try? JSONDecoder().decode([String: Double].self, from: data),
            suites.allSatisfy({ durations[$0.testTarget] != nil })
        {
            return durations
        }
        var counts: [String: Double] = [:]
        for target in package.targets where target.isTest {
            let texts = target.sources.compactMap {
                try? String(contentsOf: root.appendingPathComponent("\(target.path)/\($0)"), encoding: .utf8)
            }
            counts[target.name] = Double(
                texts.reduce(0) { total, text in
                    total + text.components(separatedBy: "@Test").count - 1
                        + text.components(separatedBy: "func test").count - 1
                })
        }
        return counts
    }

    /// ``weights(for:package:root:)`` for async callers, on a thread of its own: without a last
    /// run's durations it reads every test target's sources, which must not hold a thread of the
    /// cooperative pool.
    package static func weightsOffThePool(for suites: [TestSuite], package: DescribedPackage, root: URL)
        async throws -> [String: Double]
    {
        await DedicatedThread.run(named: "ribcage-shard-weights") {
            weights(for: suites, package: package, root: root)
        }
    }
}
