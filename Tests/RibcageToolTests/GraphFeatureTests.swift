import Foundation
import RibcageGraph
import RibcagePackage
import Testing

@Suite("Graph: focus, paths, kinds and packages")
struct GraphFeatureTests {
    /// A → C → B and E → C: a focus on A and B must keep E, a dependent of C, which A reaches.
    static let chain = DescribedPackage(
        name: "Chain", path: "/chain",
        targets: [
            .init(name: "A", type: "library", path: "A", targetDependencies: ["C"]),
            .init(name: "B", type: "library", path: "B"),
            .init(name: "C", type: "library", path: "C", targetDependencies: ["B"]),
            .init(name: "E", type: "library", path: "E", targetDependencies: ["C"]),
            .init(name: "Lone", type: "library", path: "Lone"),
            .init(name: "ATests", type: "test", path: "T", targetDependencies: ["A"]),
        ])

    @Test("several --focus keep the union of what each keeps")
    func focusUnion() throws {
        let graph = DependencyGraph(package: Self.chain)
        let names = { (focus: [String]) in
            try Set(graph.filtered(GraphFilters(focus: focus)).nodes.map(\.name))
        }
        let a = try names(["A"])
        let b = try names(["B"])
        #expect(a == ["A", "C", "B", "ATests"])
        #expect(b == ["B", "C", "A", "E", "ATests"])
        #expect(try names(["A", "B"]) == a.union(b))
        #expect(try names(["A", "Lone"]) == a.union(["Lone"]))
    }

    @Test("a focus that another filter removes is an error, exit 64")
    func focusFilteredOut() {
        let graph = DependencyGraph(package: GraphTests.package, layers: GraphTests.layers)
        #expect(throws: RibcageError.focusFilteredOut(["CartTests"], filter: "--skip-tests")) {
            try graph.filtered(GraphFilters(skipTests: true, focus: ["Cart", "CartTests"]))
        }
        let error = #expect(throws: RibcageError.self) {
            try graph.filtered(GraphFilters(skipExternal: true, focus: ["Logging"]))
        }
        #expect(error?.exitCode == 64)
    }

    @Test("why lists every path, shortest first; none when there is no dependency")
    func paths() throws {
        let package = DescribedPackage(
            name: "Diamond", path: "/d",
            targets: [
                .init(
                    name: "App", type: "executable", path: "App",
                    targetDependencies: ["Left", "Right", "Core"]),
                .init(name: "Left", type: "library", path: "L", targetDependencies: ["Core"]),
                .init(name: "Right", type: "library", path: "R", targetDependencies: ["Left"]),
                .init(name: "Core", type: "library", path: "C", productDependencies: ["Logging"]),
            ])
        let graph = DependencyGraph(package: package)
        let paths = try DependencyPaths(from: "App", to: "Core", in: graph)
        #expect(
            paths.paths == [["App", "Core"], ["App", "Left", "Core"], ["App", "Right", "Left", "Core"]])
        #expect(!paths.truncated)
        #expect(try DependencyPaths(from: "App", to: "Logging", in: graph).paths.count == 3)
        #expect(try DependencyPaths(from: "Core", to: "App", in: graph).paths.isEmpty)
        let limited = try DependencyPaths(from: "App", to: "Core", in: graph, limit: 2)
        #expect(limited.paths.count == 2 && limited.truncated)
        let drawn = paths.graph(within: graph)
        #expect(Set(drawn.nodes.map(\.name)) == ["App", "Left", "Right", "Core"])
        #expect(drawn.edges.count == 5)
        #expect(throws: RibcageError.self) { try DependencyPaths(from: "App", to: "Nope", in: graph) }
    }

    static let kinds: DescribedPackage = {
        var targets: [DescribedPackage.Target] = [
            .init(name: "Lib", type: "library", path: "Sources/Lib", moduleType: "SwiftTarget"),
            .init(name: "CShim", type: "library", path: "Sources/CShim", moduleType: "ClangTarget"),
            .init(name: "CZlib", type: "system-target", path: "Sources/CZlib"),
            .init(name: "Macros", type: "macro", path: "Sources/Macros"),
            .init(name: "Lint", type: "plugin", path: "Plugins/Lint"),
            .init(name: "Tool", type: "executable", path: "Sources/Tool"),
        ]
        targets[0].dependencies = [
            .init(name: "CShim", kind: .target),
            .init(name: "CZlib", kind: .target, condition: .init(platforms: ["linux"])),
            .init(name: "Macros", kind: .target),
            .init(
                name: "Metal", kind: .product(package: "apple-kit"),
                condition: .init(platforms: ["macos", "ios"])),
        ]
        targets[4].dependencies = [.init(name: "Tool", kind: .target)]
        return DescribedPackage(name: "Kinds", path: "/k", targets: targets)
    }()

    @Test("macros, plugins, C targets and conditional dependencies are drawn apart, and the legend says how")
    func distinctDrawing() {
        let graph = DependencyGraph(package: Self.kinds)
        #expect(graph.node(named: "CShim")?.kind == .cLibrary)
        #expect(graph.node(named: "Macros")?.kind == .macro)
        let dot = graph.dot(name: "Kinds")
        for shape in [
            #""Macros" [shape=hexagon"#, #""Lint" [shape=cds"#,
            #""CShim" [shape=box, style="filled,diagonals""#,
            #""CZlib" [shape=cylinder"#,
            ##""Lib" -> "CZlib" [style=dotted, color="#e8590c", label="linux"];"##,
            ##""Lib" -> "Metal" [style=dotted, color="#e8590c", label="macos, ios"];"##,
            #"[label="only .when(platforms/traits)", shape=plaintext"#, #"[label="c-library""#,
        ] {
            #expect(dot.contains(shape), "\(shape)")
        }
        #expect(!dot.contains("subgraph \"cluster_0"), "no Project.swift.md: nothing grouped into layers")
        let mermaid = graph.mermaid()
        #expect(!mermaid.contains("subgraph"))
        #expect(mermaid.contains(#"["CShim"]"#) == false && mermaid.contains(#"[("CShim")]"#))
        #expect(mermaid.contains(#"-- "linux" -->"#))
        #expect(mermaid.contains(#"-. "macos, ios" .->"#))
    }

    static let showDependencies = """
        {"identity": "app", "name": "App", "url": "/app", "version": "unspecified", "path": "/app", "dependencies": [
          {"identity": "swift-nio-extras", "name": "swift-nio-extras", "url": "https://github.com/apple/swift-nio-extras.git",
           "version": "1.35.2", "path": "/x", "dependencies": [
            {"identity": "swift-nio", "name": "swift-nio", "url": "https://github.com/apple/swift-nio.git",
             "version": "2.101.3", "path": "/y", "dependencies": [
              {"identity": "swift-atomics", "name": "swift-atomics", "url": "https://github.com/apple/swift-atomics.git",
               "version": "1.3.0", "path": "/z", "dependencies": []}]}]},
          {"identity": "swift-nio", "name": "swift-nio", "url": "https://github.com/apple/swift-nio.git",
           "version": "2.101.3", "path": "/y", "dependencies": []}]}
        """

    @Test(
        "at package level, each package is a cluster with its version and the products used, linked to its dependencies"
    )
    func packageLevel() throws {
        let dependencies = try PackageDependencies.parse(
            Data(Self.showDependencies.utf8), root: URL(fileURLWithPath: "/app"))
        #expect(dependencies.all.map(\.identity) == ["swift-atomics", "swift-nio", "swift-nio-extras"])
        #expect(dependencies.all.first { $0.identity == "swift-nio" }?.dependencies == ["swift-atomics"])
        let package = DescribedPackage(
            name: "App", path: "/app",
            targets: [
                .init(
                    name: "Server", type: "library", moduleType: "SwiftTarget", path: "S",
                    dependencies: [
                        .init(name: "NIOCore", kind: .product(package: "swift-nio")),
                        .init(name: "NIOExtras", kind: .product(package: "swift-nio-extras")),
                    ], sources: [])
            ])
        let graph = DependencyGraph(package: package, packages: dependencies)
        #expect(graph.node(named: "NIOCore")?.package == "swift-nio")
        #expect(graph.node(named: "swift-atomics")?.kind == .package, "used by a dependency only")
        let dot = graph.dot(name: "App")
        #expect(dot.contains(#"label="swift-nio 2.101.3""#))
        #expect(dot.contains(#"label="swift-nio-extras 1.35.2""#))
        #expect(dot.contains(#""NIOExtras" -> "NIOCore" [ltail="#))
        #expect(dot.contains(#""NIOCore" -> "swift-atomics" [ltail="#))
        let mermaid = graph.mermaid()
        #expect(mermaid.contains(#"["swift-nio 2.101.3"]"#))
        #expect(mermaid.contains("==>"))
        let focused = try graph.filtered(GraphFilters(focus: ["NIOCore"]))
        #expect(focused.packages.map(\.identity) == ["swift-atomics", "swift-nio"])
        #expect(try graph.filtered(GraphFilters(skipExternal: true)).packages.isEmpty)
    }
}

@Suite("The ribcage graph and why executables", .serialized)
struct GraphCommandTests {
    @Test("SVG and PNG are refused for a terminal, with exit 64, and go to a pipe")
    func binaryToTerminal() async throws {
        let folder = try GraphExecutableTests.fixturePackage()
        let ribcage = try await RibcageExecutableTests.ribcageExecutable().path
        // `script` gives the command a terminal for its standard output.
        let terminal = try await Shell.run(
            "script", ["-qec", "\(ribcage) graph --format png --path \(folder.url.path)", "/dev/null"])
        #expect(terminal.status == 64)
        #expect(terminal.outputText.contains("Refusing to write PNG to a terminal"))
        let piped = try await RibcageExecutableTests.ribcage([
            "graph", "--format", "png", "--path", folder.url.path,
        ])
        #expect(piped.succeeded)
        #expect(piped.standardOutput.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG signature")
    }

    @Test(
        "an --output that cannot be written is a clear error with exit 73",
        arguments: [
            ("/nonexistent-folder/graph.dot", "No such file or directory"), ("/", "Is a directory"),
            ("/etc/hostname/graph.dot", "Not a directory"),
        ])
    func unwritableOutput(_ path: String, _ reason: String) async throws {
        let folder = try GraphExecutableTests.fixturePackage()
        let result = try await RibcageExecutableTests.ribcage([
            "graph", "--output", path, "--path", folder.url.path,
        ])
        #expect(result.status == 73)
        #expect(result.errorText == "error: Cannot write \(path): \(reason).\n")
    }

    @Test("why lists the paths, draws them, and exits 1 when there is none")
    func why() async throws {
        let folder = try GraphExecutableTests.fixturePackage()
        let path = folder.url.path
        let text = try await RibcageExecutableTests.ribcage(["why", "Tool", "Base", "--path", path])
        #expect(text.succeeded, "\(text.errorText)")
        #expect(
            text.outputText == """
                Tool depends on Base through 2 paths:
                  Tool → Base
                  Tool → Feature → Base

                """)
        let mermaid = try await RibcageExecutableTests.ribcage([
            "why", "Tool", "Base", "--format", "mermaid", "--path", path,
        ])
        #expect(
            mermaid.outputText.components(separatedBy: "-->").count == 4, "three edges: \(mermaid.outputText)"
        )
        let none = try await RibcageExecutableTests.ribcage(["why", "Base", "Tool", "--path", path])
        #expect(none.status == 1)
        #expect(none.outputText == "Base does not depend on Tool.\n")
        let unknown = try await RibcageExecutableTests.ribcage(["why", "Tool", "Nope", "--path", path])
        #expect(unknown.status == 64)
        let noLimit = try await RibcageExecutableTests.ribcage([
            "why", "Tool", "Base", "--limit", "0", "--path", path,
        ])
        #expect(noLimit.status == 64 && noLimit.errorText.contains("--limit must be at least 1"))
    }

    @Test(
        "on hummingbird: --packages draws each package with its version and what it depends on; why crosses packages"
    )
    func hummingbird() async throws {
        let root = try await ThirdPartyPackage.hummingbird.checkout()
        let json = try await RibcageExecutableTests.ribcage([
            "graph", "--packages", "--format", "json", "--path", root.path,
        ])
        #expect(json.succeeded, "\(json.errorText)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
        let packages = try #require(document["packages"] as? [[String: Any]])
        let nio = try #require(packages.first { $0["identity"] as? String == "swift-nio" })
        #expect((nio["version"] as? String)?.hasPrefix("2.") == true)
        let extras = try #require(packages.first { $0["identity"] as? String == "swift-nio-extras" })
        #expect((extras["dependencies"] as? [String])?.contains("swift-nio") == true)
        #expect(
            packages.contains { $0["identity"] as? String == "swift-asn1" },
            "transitively, through swift-crypto")
        let nodes = try #require(document["nodes"] as? [[String: Any]])
        #expect(nodes.first { $0["name"] as? String == "NIOCore" }?["package"] as? String == "swift-nio")
        let edges = try #require(document["edges"] as? [[String: Any]])
        #expect(
            edges.contains {
                $0["from"] as? String == "HummingbirdCore" && $0["to"] as? String == "NIOTransportServices"
                    && ($0["condition"] as? String)?.contains("macos") == true
            }, "NIOTransportServices only on Apple platforms")

        let focused = try await Self.nodes([
            "--packages", "--focus", "HummingbirdTLS", "--direct", "--path", root.path,
        ])
        #expect(focused["NIOSSL"]?["package"] as? String == "swift-nio-ssl")
        #expect(focused["Atomics"] == nil, "no kept target uses it")
        #expect(
            focused["swift-atomics"]?["kind"] as? String == "package",
            "swift-nio, which a kept product comes from, depends on it: it stays, as a package")
        let why = try await RibcageExecutableTests.ribcage([
            "why", "HummingbirdRouter", "NIOCore", "--path", root.path,
        ])
        #expect(why.succeeded, "\(why.errorText)")
        #expect(why.outputText.contains("  HummingbirdRouter → Hummingbird → NIOCore\n"))
        #expect(why.outputText.contains("  HummingbirdRouter → Hummingbird → HummingbirdCore → NIOCore\n"))
    }

    @Test(
        "the package tree read from the checkouts and their manifests is the one swift package show-dependencies prints",
        arguments: ThirdPartyPackage.allCases)
    func packageTreeFromCheckouts(_ thirdParty: ThirdPartyPackage) async throws {
        let root = try await thirdParty.checkout()
        // describe resolves the package once, as every ribcage command does first.
        let package = try await PackageLoader.load(packageAt: root, note: { _ in })
        let shown = try await Shell.run(
            "swift", ["package", "show-dependencies", "--format", "json"], in: root)
        #expect(shown.succeeded, "\(shown.errorText)")
        let expected = try PackageDependencies.parse(shown.standardOutput, root: root).all
        let onDisk = try #require(try await PackageDependencies.fromCheckouts(root: root, package: package))
            .all
        #expect(onDisk.map(\.identity) == expected.map(\.identity))
        for (ours, theirs) in zip(onDisk, expected) {
            #expect(ours == theirs, "\(ours.identity)")
        }
        #expect(thirdParty == .argumentParser || !expected.isEmpty, "the tree is not empty")
    }

    /// The `nodes` of a `graph --format json` run, by name.
    static func nodes(_ arguments: [String]) async throws -> [String: [String: Any]] {
        let result = try await RibcageExecutableTests.ribcage(["graph", "--format", "json"] + arguments)
        #expect(result.succeeded, "\(result.errorText)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let nodes = try #require(document["nodes"] as? [[String: Any]])
        return Dictionary(nodes.compactMap { node in (node["name"] as? String).map { ($0, node) } }) {
            first, _ in first
        }
    }

    @Test(
        "on swift-nio: C targets and platform-conditional dependencies; on swift-argument-parser: plugins and a union of foci"
    )
    func nioAndArgumentParser() async throws {
        let nio = try await ThirdPartyPackage.nio.checkout().path
        let nioNodes = try await Self.nodes(["--path", nio])
        #expect(nioNodes["CNIOLinux"]?["kind"] as? String == "c-library")
        #expect(nioNodes["NIOCore"]?["kind"] as? String == "library")
        let dot = try await RibcageExecutableTests.ribcage(["graph", "--path", nio])
        #expect(dot.outputText.contains(#""CNIOLinux" [shape=box, style="filled,diagonals""#))
        #expect(
            dot.outputText.contains(
                ##""NIOFoundationCompat" -> "NIO" [style=dotted, color="#e8590c", label="##),
            "NIO is declared with .when(platforms:)")

        let parser = try await ThirdPartyPackage.argumentParser.checkout().path
        #expect(try await Self.nodes(["--path", parser])["GenerateManual"]?["kind"] as? String == "plugin")
        let toolInfo = try await Self.nodes([
            "--skip-tests", "--focus", "ArgumentParserToolInfo", "--path", parser,
        ])
        let roll = try await Self.nodes(["--skip-tests", "--focus", "roll", "--path", parser])
        let both = try await Self.nodes(
            ["--skip-tests", "--focus", "ArgumentParserToolInfo", "--focus", "roll", "--path", parser])
        #expect(Set(both.keys) == Set(toolInfo.keys).union(roll.keys))
        #expect(Set(roll.keys) == ["roll", "ArgumentParser", "ArgumentParserToolInfo"])
        #expect(toolInfo.count > roll.count)
    }

    @Test("on this workspace: why the Dog app depends on RIBs, and the union of two features")
    func workspace() async throws {
        // A copy: SwiftPM cannot read the package while this test run holds its .build.
        let copy = try await WorkspaceScaffoldTests.copyOfWorkspace()
        let root = copy.url.path
        let why = try await RibcageExecutableTests.ribcage(["why", "TodoAppDog", "RIBs", "--path", root])
        #expect(why.succeeded, "\(why.errorText)")
        #expect(why.outputText.hasPrefix("TodoAppDog depends on RIBs through "))
        #expect(why.outputText.contains("\n  TodoAppDog → TodoAppCore → RIBs\n"), "the shortest path first")
        #expect(why.outputText.contains("  TodoAppDog → TodoAppCore → Root → Profile → RIBs\n"))
        let none = try await RibcageExecutableTests.ribcage(["why", "Domain", "Data", "--path", root])
        #expect(
            none.status == 1 && none.outputText == "Domain does not depend on Data.\n", "layers point one way"
        )
        let todo = try await Self.nodes(["--skip-tests", "--direct", "--focus", "Todo", "--path", root])
        let profile = try await Self.nodes(["--skip-tests", "--direct", "--focus", "Profile", "--path", root])
        let both = try await Self.nodes(
            ["--skip-tests", "--direct", "--focus", "Todo", "--focus", "Profile", "--path", root])
        #expect(Set(both.keys) == Set(todo.keys).union(profile.keys))
        #expect(both["Todo"]?["layer"] as? String == "Features")
    }
}
