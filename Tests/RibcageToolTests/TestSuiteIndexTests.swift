import RibcageTool
import Testing

@Suite("Pairing modules with their test targets")
struct TestSuiteIndexTests {
    static let package = DescribedPackage(
        name: "Fixture", path: "/tmp/fixture",
        targets: [
            .init(
                name: "LayoutTests", type: "test", path: "Tests/LayoutTests", targetDependencies: ["Layout"]),
            .init(name: "Layout", type: "library", path: "Modules/Layout", targetDependencies: ["And"]),
            .init(name: "And", type: "library", path: "Modules/And"),
            .init(name: "AndTests", type: "test", path: "Tests/AndTests", targetDependencies: ["And"]),
            .init(name: "IntegrationSpecs", type: "test", path: "Tests/Specs", targetDependencies: ["App"]),
            .init(name: "App", type: "executable", path: "Apps/App"),
            .init(name: "Plugin", type: "plugin", path: "Plugins/P"),
            .init(name: "CCurl", type: "system-target", path: "Modules/CCurl"),
            .init(name: "Untested", type: "library", path: "Modules/Untested"),
        ])

    @Test("pairs XTests with X, or with the only target a test target depends on")
    func pairs() {
        let index = TestSuiteIndex(package: Self.package)
        #expect(
            index.suites == [
                ModuleTestSuite(module: "And", testTarget: "AndTests"),
                ModuleTestSuite(module: "App", testTarget: "IntegrationSpecs"),
                ModuleTestSuite(module: "Layout", testTarget: "LayoutTests"),
            ])
        #expect(index.untestedModules == ["Untested"])
    }

    @Test("selects suites by module name, test target name, or case-insensitively")
    func selects() throws {
        let index = TestSuiteIndex(package: Self.package)
        #expect(try index.suites(named: []).count == 3)
        #expect(try index.suites(named: ["Layout", "AndTests"]).map(\.module) == ["Layout", "And"])
        #expect(try index.suites(named: ["layout", "Layout"]).map(\.module) == ["Layout"])
    }

    @Test("names the unknown modules and lists the known ones")
    func unknown() throws {
        let index = TestSuiteIndex(package: Self.package)
        let error = try #require(throws: RibcageError.self) {
            try index.suites(named: ["And", "Nope", "Zip"])
        }
        #expect(error == .unknownModules(["Nope", "Zip"], known: ["And", "App", "Layout", "Untested"]))
        #expect(
            error.description == "Unknown modules 'Nope', 'Zip'. Known modules: And, App, Layout, Untested.")
        #expect(error.exitCode == 64)
    }

    @Test("says when a module exists but has no tests")
    func untested() {
        let index = TestSuiteIndex(package: Self.package)
        #expect(throws: RibcageError.moduleWithoutTests("Untested")) { try index.suites(named: ["Untested"]) }
    }

    @Test("filters exactly one test target")
    func filter() {
        #expect(ModuleTestSuite(module: "And", testTarget: "AndTests").filter == #"^AndTests\."#)
    }
}
