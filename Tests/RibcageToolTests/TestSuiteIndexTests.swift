import RibcagePackage
import RibcageTesting
import Testing

@Suite("Pairing test targets with the modules they test")
struct TestSuiteIndexTests {
    static let package = DescribedPackage(
        name: "Fixture", path: "/tmp/fixture",
        targets: [
            .init(
                name: "LayoutTests", type: "test", path: "Tests/LayoutTests",
                targetDependencies: ["Layout", "TestHelpers"]),
            .init(name: "Layout", type: "library", path: "Modules/Layout", targetDependencies: ["And"]),
            .init(name: "And", type: "library", path: "Modules/And"),
            .init(name: "AndTests", type: "test", path: "Tests/AndTests", targetDependencies: ["And"]),
            .init(
                name: "IntegrationSpecs", type: "test", path: "Tests/Specs",
                targetDependencies: ["TestHelpers"]),
            .init(name: "TestHelpers", type: "library", path: "Tests/Helpers", targetDependencies: ["And"]),
            .init(name: "App", type: "executable", path: "Apps/App"),
            .init(name: "Plugin", type: "plugin", path: "Plugins/P"),
            .init(name: "CCurl", type: "system-target", path: "Modules/CCurl"),
            .init(name: "Untested", type: "library", path: "Modules/Untested"),
        ])

    @Test("a test target tests the targets it depends on, whatever the names")
    func pairs() {
        let index = TestSuiteIndex(package: Self.package)
        #expect(
            index.suites == [
                TestSuite(testTarget: "AndTests", modules: ["And"]),
                TestSuite(testTarget: "IntegrationSpecs", modules: ["TestHelpers"]),
                TestSuite(testTarget: "LayoutTests", modules: ["Layout", "TestHelpers"]),
            ])
        #expect(index.untestedModules == ["App", "Untested"])
    }

    @Test("a module selects every test target that depends on it; a test target's name selects it")
    func selects() throws {
        let index = TestSuiteIndex(package: Self.package)
        #expect(try index.suites(named: []).count == 3)
        #expect(
            try index.suites(named: ["TestHelpers"]).map(\.testTarget) == ["IntegrationSpecs", "LayoutTests"])
        #expect(
            try index.suites(named: ["Layout", "AndTests"]).map(\.testTarget) == ["AndTests", "LayoutTests"])
        #expect(try index.suites(named: ["layout", "Layout"]).map(\.testTarget) == ["LayoutTests"])
    }

    @Test("names the unknown modules and lists the known ones")
    func unknown() throws {
        let index = TestSuiteIndex(package: Self.package)
        let error = try #require(throws: RibcageError.self) {
            try index.suites(named: ["And", "Nope", "Zip"])
        }
        #expect(
            error
                == .unknownModules(
                    ["Nope", "Zip"],
                    known: [
                        "And", "AndTests", "App", "IntegrationSpecs", "Layout", "LayoutTests", "TestHelpers",
                        "Untested",
                    ]))
        #expect(error.exitCode == 64)
    }

    @Test("says when a module exists but no test target depends on it")
    func untested() {
        #expect(throws: RibcageError.moduleWithoutTests("Untested")) {
            try index().suites(named: ["Untested"])
        }
    }

    func index() -> TestSuiteIndex { TestSuiteIndex(package: Self.package) }

    @Test("filters exactly the chosen test targets")
    func filter() {
        let suites = [
            TestSuite(testTarget: "AndTests", modules: []), TestSuite(testTarget: "Kit", modules: []),
        ]
        #expect(TestSuite.filter(for: suites) == #"^(AndTests|Kit)[./]"#)
    }
}
