import RibcagePackage
import RibcageScaffold
import Testing

@Suite("Package.swift's modules table, through SwiftParser")
struct ModulesTableTests {
    static let manifest = """
        // swift-tools-version: 6.2
        import PackageDescription

        let modules: [Module] = [
            .module("RIBs", layer: .core),
            .module(
                "RIBsHeadlessUI", layer: .core, dependencies: ["RIBs", "HeadlessUI"],
                testDependencies: ["RIBs"]),
            .feature(
                "Todo",
                dependencies: [
                    "RIBs", "Reactor",
                    "Domain",
                ],
                testDependencies: ["RIBs"]),
            .feature("Root", dependencies: ["RIBs", .log]),
            .feature("Bare"),
            .app("App", dependencies: ["Root"]),
        ]

        let package = Package(name: "W", targets: modules.flatMap(\\.targets))
        """

    @Test("reads every row whatever its layout: kind, name and dependencies")
    func rows() throws {
        let table = try ModulesTable(source: Self.manifest)
        #expect(table.rows.map(\.name) == ["RIBs", "RIBsHeadlessUI", "Todo", "Root", "Bare", "App"])
        #expect(table.rows.map(\.kind) == ["module", "module", "feature", "feature", "feature", "app"])
        #expect(table.row(named: "RIBsHeadlessUI")?.dependencies == ["RIBs", "HeadlessUI"])
        #expect(table.row(named: "Root")?.dependencies == ["RIBs", ".log"])
        #expect(table.row(named: "Bare")?.dependencies == nil)
    }

    @Test("a new module goes after the last module of its layer, before the next layer's")
    func appendByLayer() throws {
        var table = try ModulesTable(
            source: """
                let modules: [Module] = [
                    .module("And", layer: .core),
                    .module("RIBs", layer: .core),
                    .module("Data", layer: .data),
                    .module("Domain", layer: .domain),
                ]
                """)
        try table.append(row: #".module("Money", layer: .core)"#, kind: "module", layer: "core")
        try table.append(row: #".module("Ledger", layer: .domain)"#, kind: "module", layer: "domain")
        try table.append(row: #".module("Cards", layer: .features)"#, kind: "module", layer: "features")
        #expect(table.rows.map(\.name) == ["And", "RIBs", "Money", "Data", "Domain", "Ledger", "Cards"])
        #expect(table.row(named: "Money")?.layer == "core")
    }

    @Test("a new row goes after the last row of its kind, indented like it; the rest is untouched")
    func append() throws {
        var table = try ModulesTable(source: Self.manifest)
        try table.append(row: #".feature("Settings", dependencies: ["RIBs"])"#, kind: "feature")
        try table.append(row: #".module("Money", layer: .domain)"#, kind: "module")
        try table.append(row: #".tool("Lint")"#, kind: "tool")
        #expect(
            table.source == """
                // swift-tools-version: 6.2
                import PackageDescription

                let modules: [Module] = [
                    .module("RIBs", layer: .core),
                    .module(
                        "RIBsHeadlessUI", layer: .core, dependencies: ["RIBs", "HeadlessUI"],
                        testDependencies: ["RIBs"]),
                    .module("Money", layer: .domain),
                    .feature(
                        "Todo",
                        dependencies: [
                            "RIBs", "Reactor",
                            "Domain",
                        ],
                        testDependencies: ["RIBs"]),
                    .feature("Root", dependencies: ["RIBs", .log]),
                    .feature("Bare"),
                    .feature("Settings", dependencies: ["RIBs"]),
                    .app("App", dependencies: ["Root"]),
                    .tool("Lint"),
                ]

                let package = Package(name: "W", targets: modules.flatMap(\\.targets))
                """)
        #expect(
            table.rows.map(\.name) == [
                "RIBs", "RIBsHeadlessUI", "Money", "Todo", "Root", "Bare", "Settings", "App", "Lint",
            ])
    }

    @Test(
        "a dependency joins an inline list inline, a list over lines on a line of its own, or a new argument")
    func addDependency() throws {
        var table = try ModulesTable(source: Self.manifest)
        try table.addDependency(#""Settings""#, toRow: "Root")
        try table.addDependency(#""Settings""#, toRow: "Todo")
        try table.addDependency(#""Settings""#, toRow: "Bare")
        #expect(table.source.contains(#".feature("Root", dependencies: ["RIBs", .log, "Settings"]),"#))
        #expect(table.source.contains("            \"Domain\",\n            \"Settings\",\n        ],"))
        #expect(table.source.contains(#".feature("Bare", dependencies: ["Settings"]),"#))
        #expect(table.row(named: "Todo")?.dependencies == ["RIBs", "Reactor", "Domain", "Settings"])
    }

    @Test("refuses a manifest without exactly one modules table, or with a row it cannot read")
    func refusals() {
        #expect(throws: RibcageError.self) {
            try ModulesTable(source: "import PackageDescription\nlet package = Package(name: \"P\")\n")
        }
        #expect(throws: RibcageError.self) {
            try ModulesTable(source: "let modules: [Module] = []\nlet modules: [Module] = []\n")
        }
        #expect(throws: RibcageError.self) {
            try ModulesTable(source: "let modules: [Module] = [makeRow()]\n")
        }
        #expect(throws: RibcageError.self) {
            var table = try ModulesTable(source: Self.manifest)
            try table.addDependency(#""X""#, toRow: "Nope")
        }
    }
}

@Suite("Names for new modules")
struct ModuleNameTests {
    static let taken = ModuleName.TakenNames(
        workspace: ["RIBs", "Todo", "TodoTests", "ribcage"], dependencyProducts: ["Logging": "swift-log"],
        sdk: ["Swift", "Foundation", "XCTest", "Testing", "Glibc", "SwiftUI"])

    @Test(
        "refuses names that cannot compile as a module's, as bad usage (exit 64)",
        arguments: ["Self", "Any", "class", "lowercase", "With-Dash", "Ünicode", "9Lives", "", "Has Space"])
    func invalid(_ name: String) {
        let error = #expect(throws: RibcageError.self) { try ModuleName.validate(name, against: Self.taken) }
        #expect(error?.exitCode == 64)
    }

    @Test(
        "refuses names that would shadow a module in use (exit 5)",
        arguments: ["Swift", "Foundation", "XCTest", "Testing", "SwiftUI", "Logging", "RIBs", "Todo"])
    func taken(_ name: String) {
        let error = #expect(throws: RibcageError.self) { try ModuleName.validate(name, against: Self.taken) }
        #expect(error?.exitCode == 5)
    }

    @Test("refuses a name whose test target is taken, and accepts a fresh one")
    func testTargetAndFresh() throws {
        let error = #expect(throws: RibcageError.self) {
            try ModuleName.validate(
                "Todo",
                against: ModuleName.TakenNames(workspace: ["TodoTests"], dependencyProducts: [:], sdk: []))
        }
        #expect(error?.description.contains("TodoTests") == true)
        try ModuleName.validate("Settings", against: Self.taken)
    }
}
