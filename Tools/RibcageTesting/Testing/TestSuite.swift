import RibcagePackage

/// A test target and the modules it tests: the targets it depends on, as
/// `swift package describe` reports them. Names play no part: `ArgumentParserUnitTests` tests
/// `ArgumentParser` and `ArgumentParserTestHelpers` because it depends on both.
package struct TestSuite: Sendable, Equatable, Hashable {
    /// The test target, for example `AndTests`.
    package var testTarget: String
    /// The targets of the package it depends on, in manifest order.
    package var modules: [String]

    /// Creates a pairing of a test target and the modules it tests.
    package init(testTarget: String, modules: [String]) {
        self.testTarget = testTarget
        self.modules = modules
    }

    /// The module the test target is compiled into, which its tests are named after:
    /// `My_Tests` for a target named `My-Tests`.
    package var moduleName: String { TestCaseFilter.moduleName(ofTarget: testTarget) }

    /// A `swift test --filter` pattern that selects the tests of `suites` and no others.
    ///
    /// XCTest names a test `Module.Class/method` and Swift Testing `Module.Suite/test()` (or
    /// `Module.test()` at the top level), so the module name followed by `.` or `/` is exact; a
    /// plain `--filter AndTests` would also run `AndTestsExtra`. The module, not the target's
    /// name: a target named `My-Tests` is compiled as `My_Tests`.
    package static func filter(for suites: [TestSuite]) -> String {
        "^(\(suites.map(\.moduleName).joined(separator: "|")))[./]"
    }
}

/// Every test target of a package with the modules it tests, and the modules no test target
/// depends on.
package struct TestSuiteIndex: Sendable, Equatable {
    /// The test targets, sorted by name.
    package var suites: [TestSuite]
    /// Modules (targets that are not tests, plugins or system libraries) no test target depends on.
    package var untestedModules: [String]

    /// Reads the pairing from the package's dependency lists.
    package init(package: DescribedPackage) {
        suites = package.targets.filter(\.isTest)
            .map { TestSuite(testTarget: $0.name, modules: $0.targetDependencies) }
            .sorted { $0.testTarget < $1.testTarget }
        let tested = Set(suites.flatMap(\.modules))
        untestedModules = package.targets
            .filter { !$0.isTest && !tested.contains($0.name) }
            .filter { !["plugin", "system-target", "binary", "snippet"].contains($0.type) }
            .map(\.name)
            .sorted()
    }

    /// The modules that have a test target, sorted.
    package var testedModules: [String] {
        Set(suites.flatMap(\.modules)).sorted()
    }

    /// The suites for `names`: a test target's name selects it, a module's name selects every
    /// test target that depends on the module. All suites when `names` is empty.
    ///
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` listing the modules and test targets
    ///   that do exist, or ``RibcageError/moduleWithoutTests(_:)``.
    package func suites(named names: [String]) throws -> [TestSuite] {
        guard !names.isEmpty else { return suites }
        var selected: Set<TestSuite> = []
        var unknown: [String] = []
        for name in names {
            let matches = self.suites(for: name) ?? self.suites(for: name, caseInsensitive: true)
            if let matches {
                selected.formUnion(matches)
            } else if untestedModules.contains(name) {
                throw RibcageError.moduleWithoutTests(name)
            } else {
                unknown.append(name)
            }
        }
        guard unknown.isEmpty else {
            throw RibcageError.unknownModules(
                unknown, known: (testedModules + untestedModules + suites.map(\.testTarget)).sorted())
        }
        return suites.filter { selected.contains($0) }
    }

    private func suites(for name: String, caseInsensitive: Bool = false) -> [TestSuite]? {
        let same = { (other: String) in
            caseInsensitive ? other.lowercased() == name.lowercased() : other == name
        }
        let found = suites.filter { same($0.testTarget) || $0.modules.contains(where: same) }
        return found.isEmpty ? nil : found
    }
}
