import BlockingWork
import Foundation
import RibcageLint
import RibcagePackage
import RibcageTesting

/// Test targets with Swift Testing tests that `ribcage test` cannot select by test target, and
/// why: tests in an extension of a type the target does not declare (`extension String`, a
/// library's type) are named after that type's module (`Swift.String/test()`), so every
/// per-target filter (a suite run alone, a shard, a remote action) misses them, and a run of
/// every target cannot tell whose they are. Without this check such a test, red or green, runs
/// in none of those modes and the row is green: a plain `swift test` would have run it.
enum UnselectableTests {
    /// For each of `suites` that has such tests, the sentence its row fails with.
    static func find(
        in suites: [TestSuite], package: DescribedPackage, root: URL
    ) async throws -> [String: String] {
        let targets = suites.compactMap { suite in package.targets.first { $0.name == suite.testTarget } }
        return try await DedicatedThread.run(named: "ribcage-test-extensions") {
            var found: [String: String] = [:]
            for target in targets {
                let sources = try target.sources.filter { $0.hasSuffix(".swift") }.sorted().map {
                    try String(
                        contentsOf: root.appendingPathComponent("\(target.path)/\($0)"), encoding: .utf8)
                }
                let foreign = TestSuiteOutline.testsInForeignExtensions(
                    ofTarget: sources, module: TestCaseFilter.moduleName(ofTarget: target.name))
                guard !foreign.isEmpty else { continue }
                let tests = foreign.values.reduce(0, +)
                let extensions = foreign.keys.sorted().map { "`extension \($0)`" }.joined(separator: ", ")
                let first = foreign.keys.sorted()[0]
                let one = tests == 1
                let them = one ? "it" : "them"
                found[target.name] = """
                    \(tests) test\(one ? "" : "s") of \(target.name) \(one ? "sits" : "sit") in \(extensions): \
                    Swift Testing names \(them) after that type's module (`Module.\(first)/…`), so ribcage test \
                    cannot select \(them) with \(target.name), and \(one ? "it" : "they") did not run as its tests. \
                    Move \(them) into a type \(target.name) declares (for example `@Suite struct \(first)Tests`).
                    """
            }
            return found
        }
    }
}
