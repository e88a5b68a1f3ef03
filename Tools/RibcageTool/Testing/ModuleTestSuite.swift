/// A module of the package and the test target that tests it.
package struct ModuleTestSuite: Sendable, Equatable, Hashable {
    /// The module under test, for example `And`.
    package var module: String
    /// Its test target, for example `AndTests`.
    package var testTarget: String

    /// Creates a pairing of a module and its test target.
    package init(module: String, testTarget: String) {
        self.module = module
        self.testTarget = testTarget
    }

    /// The `swift test --filter` pattern that selects this test target's tests and no other's.
    ///
    /// XCTest names a test `Target.Class/method` and Swift Testing `Target.Suite/test()`, so the
    /// target name followed by a dot is exact; a plain `--filter AndTests` would also run
    /// `AndTestsExtra`.
    package var filter: String { "^\(testTarget)\\." }
}

/// Every module of a package, and the test target of each module that has one.
package struct TestSuiteIndex: Sendable, Equatable {
    /// Modules with a test target, in the package's order.
    package var suites: [ModuleTestSuite]
    /// Modules (non-test targets) with no test target.
    package var untestedModules: [String]

    /// Pairs each test target with its module.
    ///
    /// A test target `XTests` tests `X` when the package has a target `X`; otherwise it tests the
    /// single target it depends on; failing both, it stands for itself. Plugins and system
    /// libraries are not modules one tests.
    package init(package: DescribedPackage) {
        let targetNames = Set(package.targets.map(\.name))
        var suites: [ModuleTestSuite] = []
        for target in package.targets where target.isTest {
            let stem = target.name.hasSuffix("Tests") ? String(target.name.dropLast(5)) : ""
            let module: String
            if targetNames.contains(stem), !stem.isEmpty {
                module = stem
            } else if target.targetDependencies.count == 1, let only = target.targetDependencies.first {
                module = only
            } else {
                module = target.name
            }
            suites.append(ModuleTestSuite(module: module, testTarget: target.name))
        }
        let tested = Set(suites.map(\.module))
        self.suites = suites.sorted { $0.module < $1.module }
        self.untestedModules = package.targets
            .filter { !$0.isTest && !tested.contains($0.name) && $0.type != "plugin" }
            .filter { $0.type != "system-target" }
            .map(\.name)
            .sorted()
    }

    /// The suites for `names`, which may be module names or test target names; all suites when
    /// `names` is empty.
    ///
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` listing the modules that do exist, or
    ///   ``RibcageError/moduleWithoutTests(_:)``.
    package func suites(named names: [String]) throws -> [ModuleTestSuite] {
        guard !names.isEmpty else { return suites }
        var selected: [ModuleTestSuite] = []
        var unknown: [String] = []
        for name in names {
            if let suite = suites.first(where: { $0.module == name || $0.testTarget == name })
                ?? suites.first(where: { $0.module.lowercased() == name.lowercased() })
            {
                if !selected.contains(suite) { selected.append(suite) }
            } else if untestedModules.contains(name) {
                throw RibcageError.moduleWithoutTests(name)
            } else {
                unknown.append(name)
            }
        }
        guard unknown.isEmpty else {
            throw RibcageError.unknownModules(
                unknown, known: (suites.map(\.module) + untestedModules).sorted())
        }
        return selected
    }
}
