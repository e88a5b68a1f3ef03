import Foundation
import RibcageBuild
import RibcagePackage
import Testing

@Suite("ribcage build: the plan, the critical path and the compiler's errors")
struct BuildPlanTests {
    /// Core ← Feature ← App, Core ← Other, Feature uses the external product `Log`; a system
    /// library and a test target that are never steps of their own.
    static let package = DescribedPackage(
        name: "Fixture", path: "/fixture",
        targets: [
            .init(name: "Core", type: "library", path: "Modules/Core", targetDependencies: ["CSystem"]),
            .init(name: "CSystem", type: "system-target", path: "Modules/CSystem"),
            .init(
                name: "Feature", type: "library", path: "Modules/Feature", targetDependencies: ["Core"],
                productDependencies: ["Log"]),
            .init(
                name: "App", type: "executable", path: "Apps/App", targetDependencies: ["Feature", "Core"]),
            .init(name: "Other", type: "library", path: "Modules/Other", targetDependencies: ["Core"]),
            .init(name: "CoreTests", type: "test", path: "Tests/CoreTests", targetDependencies: ["Core"]),
        ])

    @Test("every non-test module, dependencies first, external products before all")
    func wholePlan() throws {
        let plan = try BuildPlan(package: Self.package, modules: [])
        #expect(plan.steps.map(\.name) == ["Log", "Core", "Feature", "App", "Other"])
        let split = try BuildPlan(
            package: Self.package, modules: [], productModules: ["Log": ["LogCore", "Log"]])
        #expect(split.steps.map(\.name) == ["LogCore", "Log", "Core", "Feature", "App", "Other"])
        #expect(split.steps.first { $0.name == "Feature" }?.dependencies == ["Core", "LogCore", "Log"])
        #expect(plan.steps.first?.kind == .externalProduct)
        #expect(plan.steps.first { $0.name == "Feature" }?.dependencies == ["Core", "Log"])
    }

    @Test("a named module brings what it needs and nothing else; a test target can be named")
    func namedModules() throws {
        #expect(
            try BuildPlan(package: Self.package, modules: ["Other"]).steps.map(\.name) == ["Core", "Other"])
        #expect(
            try BuildPlan(package: Self.package, modules: ["CoreTests"]).steps.map(\.name) == [
                "Core", "CoreTests",
            ])
    }

    @Test("an unknown name or a target that compiles nothing is a typed error listing the modules")
    func unknownModule() {
        #expect(
            throws: RibcageError.unknownModules(
                ["Nope", "CSystem"], known: ["App", "Core", "CoreTests", "Feature", "Other"])
        ) {
            try BuildPlan(package: Self.package, modules: ["Nope", "CSystem"])
        }
    }

    @Test("dependents are found through other modules")
    func dependents() throws {
        let plan = try BuildPlan(package: Self.package, modules: [])
        #expect(plan.dependents(of: "Core") == ["Feature", "App", "Other"])
        #expect(plan.dependents(of: "Log") == ["Feature", "App"])
        #expect(plan.dependents(of: "App").isEmpty)
    }

    @Test("--affected: the owner of a changed file and its dependents; the manifest affects all")
    func affected() {
        let affected = BuildPlan.affectedModules(
            package: Self.package, changedFiles: ["Modules/Feature/Feature.swift", "README.md"])
        #expect(affected.map(\.module) == ["Feature", "App"])
        #expect(
            affected.map(\.reason) == [
                "changed: Modules/Feature/Feature.swift", "depends on Feature (changed)",
            ])
        #expect(
            BuildPlan.affectedModules(package: Self.package, changedFiles: ["Tests/CoreTests/A.swift"])
                .isEmpty)
        #expect(
            BuildPlan.affectedModules(package: Self.package, changedFiles: ["Package.resolved"]).count == 4)
    }

    @Test("the critical path is the heaviest chain of dependent modules, not the slowest module")
    func criticalPath() throws {
        let plan = try BuildPlan(package: Self.package, modules: [])
        // Other alone (9 s) is the slowest module, but Core → Feature → App weighs 2 + 4 + 5 = 11.
        let path = BuildReport.criticalPath(
            plan: plan, seconds: ["Log": 1, "Core": 2, "Feature": 4, "App": 5, "Other": 8.5])
        #expect(path.modules == ["Core", "Feature", "App"])
        #expect(path.seconds == 11)
        // With the external product slower than Core, the chain goes through it.
        let throughLog = BuildReport.criticalPath(
            plan: plan, seconds: ["Log": 3, "Core": 2, "Feature": 4, "App": 5, "Other": 1])
        #expect(throughLog.modules == ["Log", "Feature", "App"])
    }

    @Test("the table, the closing line and blocked modules")
    func reportText() throws {
        let plan = try BuildPlan(package: Self.package, modules: [])
        let error = CompilerDiagnostic(
            file: "/fixture/Modules/Feature/F.swift", line: 3, column: 7, message: "cannot find 'x' in scope")
        let results: [ModuleBuildResult] = [
            .init(name: "Log", kind: .externalProduct, status: .upToDate, seconds: 0.4),
            .init(name: "Core", kind: .target, status: .built, seconds: 2.5),
            .init(
                name: "Feature", kind: .target, status: .failed, seconds: 1.25, errors: [error],
                blocks: ["App"]),
            .init(name: "App", kind: .target, status: .blocked, seconds: 0, blockedBy: "Feature"),
            .init(name: "Other", kind: .target, status: .built, seconds: 12.34),
        ]
        let report = BuildReport(configuration: "debug", plan: plan, results: results)
        #expect(
            report.table == """
                Module         Time       Status
                Log (product)  0.40 s     up to date
                Core           2.50 s     built
                Feature        1.25 s     FAILED
                App            —          blocked by Feature
                Other          12.3 s     built

                """)
        #expect(report.closingLine == "2 built, 1 up to date, 1 failed, 1 blocked")
        #expect(report.failures.contains("✘ Feature failed, blocking App"))
        #expect(
            report.failures.contains("/fixture/Modules/Feature/F.swift:3:7: error: cannot find 'x' in scope"))
        // Failed and up-to-date modules compiled nothing a full build keeps: 0 s on the path.
        #expect(report.criticalPath.modules == ["Core", "Other"])
        #expect(report.timings.contains("Critical path: 14.8 s of 14.8 s in all"))
        let decoded = try JSONDecoder().decode(BuildReport.self, from: Data(try report.json().utf8))
        #expect(decoded == report)
    }

    @Test("compiler errors: file, line, column and message; warnings and repeats dropped")
    func diagnostics() {
        let log = """
            [3/9] Compiling Feature F.swift
            /w/Modules/Feature/F.swift:3:7: error: cannot find 'x' in scope
            /w/Modules/Feature/F.swift:9:1: warning: unused variable
            /w/Modules/Feature/F.swift:3:7: error: cannot find 'x' in scope
            C:/odd:path/G.swift:12:2: error: expected '}'
            error: fatalError
            """
        #expect(
            CompilerDiagnostic.errors(in: log) == [
                .init(
                    file: "/w/Modules/Feature/F.swift", line: 3, column: 7,
                    message: "cannot find 'x' in scope"),
                .init(file: "C:/odd:path/G.swift", line: 12, column: 2, message: "expected '}'"),
            ])
    }

    @Test("SwiftPM's log: whether a step compiled anything, and the seconds it reports")
    func swiftPMLog() {
        let built = """
            Building for debugging...
            [3/4] Emitting module A
            [4/4] Compiling A A.swift
            Build of target: 'A' complete! (0.33s)
            """
        let upToDate = """
            Building for debugging...
            [0/1] Write swift-version-6A52383ED409C6A7.txt
            Build of target: 'A' complete! (0.15s)
            """
        #expect(ModuleBuilder.didWork(built))
        #expect(!ModuleBuilder.didWork(upToDate))
        #expect(ModuleBuilder.reportedSeconds(built) == 0.33)
        #expect(ModuleBuilder.reportedSeconds("Build of target: 'A' complete! (0 warnings, 4.92s)") == 4.92)
        #expect(ModuleBuilder.reportedSeconds("error: fatalError") == nil)
    }
}
