import Foundation
import RibcageGraph
import RibcagePackage
import Testing

@Suite("Dependency graph")
struct GraphTests {
    static let package = DescribedPackage(
        name: "Shop", path: "/tmp/shop",
        targets: [
            .init(name: "App", type: "executable", path: "Apps/App", targetDependencies: ["Checkout"]),
            .init(
                name: "Checkout", type: "library", path: "Modules/Checkout",
                targetDependencies: ["Cart", "Net"]),
            .init(name: "Cart", type: "library", path: "Modules/Cart", targetDependencies: ["Core"]),
            .init(name: "Net", type: "library", path: "Modules/Net", productDependencies: ["Logging"]),
            .init(name: "Core", type: "library", path: "Modules/Core"),
            .init(name: "CartTests", type: "test", path: "Tests/CartTests", targetDependencies: ["Cart"]),
        ])
    static let layers = [
        "App": "Apps", "Checkout": "Features", "Cart": "Domain", "Net": "Core", "Core": "Core",
    ]

    @Test("reads the Modules table of Project.swift.md, with layers for modules and test targets")
    func manifest() {
        let manifest = ProjectManifest(
            markdown: """
                # Project
                ## Modules

                | Module | Path | Layer | Product | Dependencies | Test target |
                |--------|------|-------|---------|--------------|-------------|
                | `Cart` | Modules/Cart | Domain | library | Core, Logging (swift-log) | CartTests |
                | Core | Modules/Core | Core | library | — | — |

                ## Layers
                | Layer | May depend on |
                |---|---|
                | Core | Core |
                """)
        #expect(manifest.modules.map(\.name) == ["Cart", "Core"])
        #expect(manifest.modules[0].dependencies == ["Core", "Logging (swift-log)"])
        #expect(manifest.modules[1].testTarget == nil)
        #expect(manifest.layers == ["Cart": "Domain", "CartTests": "Tests", "Core": "Core"])
    }

    @Test("has a node per target and external product, and an edge per declared dependency")
    func graph() {
        let graph = DependencyGraph(package: Self.package, layers: Self.layers)
        #expect(
            graph.nodes.map(\.name) == ["Core", "Net", "Cart", "Checkout", "App", "CartTests", "Logging"])
        #expect(graph.nodes.first { $0.name == "Logging" }?.kind == .externalProduct)
        #expect(graph.nodes.first { $0.name == "CartTests" }?.layer == "Tests")
        #expect(
            graph.edges.map { "\($0.from)->\($0.to)" } == [
                "App->Checkout", "Cart->Core", "CartTests->Cart", "Checkout->Cart", "Checkout->Net",
                "Net->Logging",
            ])
    }

    @Test("focus keeps dependencies and dependents, transitively unless direct")
    func focus() async throws {
        let graph = DependencyGraph(package: Self.package, layers: Self.layers)
        let transitive = try graph.filtered(GraphFilters(focus: ["Cart"]))
        #expect(Set(transitive.nodes.map(\.name)) == ["Cart", "Core", "Checkout", "App", "CartTests"])
        let direct = try graph.filtered(
            GraphFilters(skipTests: true, skipExternal: true, focus: ["Checkout"], direct: true))
        #expect(Set(direct.nodes.map(\.name)) == ["Checkout", "Cart", "Net", "App"])
        #expect(direct.edges.allSatisfy { $0.from == "Checkout" || $0.to == "Checkout" })
        let error = try #require(throws: RibcageError.self) {
            try graph.filtered(GraphFilters(focus: ["Nope"]))
        }
        #expect(error.description.contains("Unknown module 'Nope'"))
    }

    @Test("JSON is versioned and holds exactly the filtered graph")
    func json() async throws {
        let filters = GraphFilters(skipTests: true, skipExternal: true)
        let graph = try DependencyGraph(package: Self.package, layers: Self.layers).filtered(filters)
        let text = try graph.json(package: "Shop", filters: filters)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 2)
        let names = (document["nodes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Core", "Net", "Cart", "Checkout", "App"])
        #expect((document["filters"] as? [String: Any])?["skipTests"] as? Bool == true)
    }

    @Test("DOT is deterministic, escapes names, and parses back through Graphviz")
    func dot() async throws {
        let graph = DependencyGraph(package: Self.package, layers: Self.layers)
        let dot = graph.dot(name: "Shop \"quoted\"")
        #expect(
            dot == DependencyGraph(package: Self.package, layers: Self.layers).dot(name: "Shop \"quoted\""))
        #expect(dot.contains(#"digraph "Shop \"quoted\"" {"#))
        #expect(dot.contains(#""Net" -> "Logging" [style=dashed];"#))
        #expect(dot.contains("label=\"Features\""))
        #expect(dot.contains("cluster_legend"))
        let canonical = try await Shell.run("sh", ["-c", "printf '%s' \"$0\" | dot -Tcanon", dot])
        #expect(canonical.succeeded, "dot -Tcanon refused the output: \(canonical.errorText)")
        #expect(canonical.outputText.contains("Checkout"))
    }

    @Test("Mermaid has a subgraph per layer and dashed edges to products")
    func mermaid() {
        let text = DependencyGraph(package: Self.package, layers: Self.layers).mermaid()
        #expect(text.hasPrefix("graph LR\n"))
        #expect(text.contains("  subgraph Features\n"))
        #expect(text.contains("-.->"))
    }
}

@Suite("The ribcage graph executable", .serialized)
struct GraphExecutableTests {
    /// Base ← Feature ← Tool, and FeatureTests, in a temporary folder.
    static func fixturePackage() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Fixture", targets: [
                .target(name: "Base"),
                .target(name: "Feature", dependencies: ["Base"]),
                .executableTarget(name: "Tool", dependencies: ["Feature", "Base"]),
                .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
            ])
            """, to: "Package.swift")
        for (target, file) in [
            ("Base", "Sources/Base/B.swift"), ("Feature", "Sources/Feature/F.swift"),
            ("Tool", "Sources/Tool/main.swift"), ("FeatureTests", "Tests/FeatureTests/T.swift"),
        ] {
            try folder.write("// \(target)\n", to: file)
        }
        return folder
    }

    @Test("draws a fixture package: edges equal what swift package describe reports; svg renders")
    func fixture() async throws {
        let folder = try Self.fixturePackage()
        let described = try await PackageLoader.load(packageAt: folder.url, note: { _ in })
        let expected = Set(
            described.targets.flatMap { target in target.targetDependencies.map { "\(target.name)->\($0)" } })

        let json = try await RibcageExecutableTests.ribcage([
            "graph", "--format", "json", "--path", folder.url.path,
        ])
        #expect(json.succeeded, "\(json.errorText)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
        let edges = (document["edges"] as? [[String: String]])?.compactMap { edge in
            edge["from"].flatMap { from in edge["to"].map { "\(from)->\($0)" } }
        }
        #expect(Set(edges ?? []) == expected)
        #expect(expected == ["Feature->Base", "Tool->Feature", "Tool->Base", "FeatureTests->Feature"])

        let svgFile = folder.url.appendingPathComponent("graph.svg").path
        let svg = try await RibcageExecutableTests.ribcage([
            "graph", "--format", "svg", "--output", svgFile, "--path", folder.url.path,
        ])
        #expect(svg.succeeded, "\(svg.errorText)")
        #expect(try String(contentsOfFile: svgFile, encoding: .utf8).contains("<svg"))

        let unknown = try await RibcageExecutableTests.ribcage([
            "graph", "--focus", "Nope", "--path", folder.url.path,
        ])
        #expect(unknown.status == 64)
        #expect(unknown.errorText.contains("Known modules: Base, Feature, FeatureTests, Tool."))
    }
}

@Suite("Embedding the graph in Markdown")
struct MarkdownGraphBlockTests {
    @Test("replaces only the block between the markers, and is stable on a second run")
    func replaces() async throws {
        let text = "# Title\n\n<!-- ribcage graph begin -->\nold\n<!-- ribcage graph end -->\n\nAfter.\n"
        let once = try MarkdownGraphBlock.replacing(
            in: text, with: "graph LR\n  a --> b\n", file: "README.md")
        #expect(
            once
                == "# Title\n\n<!-- ribcage graph begin -->\n```mermaid\ngraph LR\n  a --> b\n```\n<!-- ribcage graph end -->\n\nAfter.\n"
        )
        #expect(
            try MarkdownGraphBlock.replacing(in: once, with: "graph LR\n  a --> b\n", file: "README.md")
                == once)
    }

    @Test("names the file when the markers are missing")
    func missingMarkers() {
        #expect(throws: RibcageError.markdownMarkersMissing("README.md")) {
            try MarkdownGraphBlock.replacing(in: "no markers", with: "graph LR\n", file: "README.md")
        }
    }
}

@Suite("Reading a package that describe cannot read")
struct DumpFallbackTests {
    @Test("falls back to dump-package, says so, and still draws the edges")
    func fallback() async throws {
        let folder = try PackageFixtures.unfinished()
        let result = try await RibcageExecutableTests.ribcage([
            "graph", "--format", "json", "--path", folder.url.path,
        ])
        #expect(result.succeeded, "\(result.errorText)")
        #expect(result.errorText.contains("dump-package"))
        let document = try #require(
            try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let edges = (document["edges"] as? [[String: String]])?.map {
            "\($0["from"] ?? "")->\($0["to"] ?? "") \($0["kind"] ?? "")"
        }
        #expect(
            Set(edges ?? []) == ["Feature->Base target", "Feature->Missing product", "Loose->Base target"])
    }
}
