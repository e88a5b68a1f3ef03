import ArgumentParser
import BlockingWork
import Foundation
import RibcageGraph
import RibcageLint
import RibcagePackage
import RibcageTesting

/// `bench graph`: the ribcage tool on a generated 500-module package, against
/// `swift package describe` alone, and the import scanner over 100,000 sources.
struct GraphBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract:
            "graph, lint and affected selection on a generated 500-module package; the import scan over 100,000 files."
    )

    @Option(help: "Modules in the generated package.")
    var modules = 500

    @Option(help: "Sources for the import scan.")
    var files = 100_000

    @Option(help: "Repetitions; the median is reported.")
    var repetitions = 3

    func run() async throws {
        #if DEBUG
            print("warning: this is a debug build; run `swift run -c release bench graph` for real figures.")
        #endif
        try await ScratchFolder.with(prefix: "bench-graph") { try await measure(packageAt: $0) }
    }

    private func measure(packageAt root: URL) async throws {
        // Writing the package's files, and every read of them below, blocks: each runs on a
        // thread of its own, off the cooperative pool.
        try await DedicatedThread.run(named: "bench-graph-package") { try generatePackage(at: root) }

        let describe = try await Measurement.median(repetitions: repetitions) {
            _ = try await Shell.run("swift", ["package", "describe", "--type", "json"], in: root)
        }
        let load = try await Measurement.median(repetitions: repetitions) {
            _ = try await PackageLoader.load(packageAt: root, note: { print($0) })
        }
        // Our own work, timed on the package already read.
        let package = try await PackageLoader.load(packageAt: root, note: { print($0) })
        // The toolchain's module list and the manifest are read from files too.
        let (toolchain, manifest) = try await DedicatedThread.run(named: "bench-graph-inputs") {
            (Toolchain.current(), try ProjectManifest.load(packageAt: root))
        }
        let graph = Measurement.median(repetitions: repetitions) {
            _ = DependencyGraph(package: package, layers: manifest?.layers ?? [:]).dot(name: package.name)
        }
        // The lint reads every source, as `ribcage lint` does.
        let (lint, findings) = try await DedicatedThread.run(named: "bench-graph-lint") {
            [repetitions] in
            var findings = 0
            let lint = try Measurement.median(repetitions: repetitions) {
                let linter = Linter(
                    package: package, manifest: manifest,
                    sources: try Linter.readSources(of: package, root: root),
                    toolchain: toolchain)
                findings = linter.diagnostics().count
            }
            return (lint, findings)
        }
        var selected = 0
        let affected = Measurement.median(repetitions: repetitions) {
            let selection = AffectedSelection(
                package: package, index: TestSuiteIndex(package: package),
                changedFiles: ["Sources/M0/M0.swift"])
            selected = selection.choices.count
        }
        print(
            "Graph benchmark: a generated package of \(modules) modules and \(modules) test targets, median of \(repetitions)\n"
        )
        print("swift package describe alone:         \(Measurement.milliseconds(describe))")
        print(
            "reading the package (describe + dump-package at once): \(Measurement.milliseconds(load))  (\(Int((load / describe * 100).rounded()))% of describe)"
        )
        for (name, time) in [
            ("graph + DOT", graph), ("lint (reads every source)", lint), ("affected selection", affected),
        ] {
            let padded = ("our work, " + name + ":").padding(toLength: 38, withPad: " ", startingAt: 0)
            print(
                "\(padded)\(Measurement.milliseconds(time))  (+\(Int((time / describe * 100).rounded()))% on top of describe)"
            )
        }
        print(
            "lint findings on the generated package: \(findings) (expected 0); suites selected by a change to M0: \(selected)"
        )

        // The import scanner on its own, over many files held in memory.
        let sources = (0..<files).map { index in
            """
            // File \(index): import NotReally (a comment)
            import Foundation
            @testable import Module\(index % 97)
            import struct Kit\(index % 13).Thing
            /* block comment: import Hidden */
            let text = "import InAString \\(index)"
            #if canImport(Optional\(index % 7))
            import Optional\(index % 7)
            #endif
            func work() -> Int { \(index) }
            """
        }
        // The scanner (SwiftParser, with each `#if` clause's condition read), timed `repetitions`
        // times over the same sources.
        var references = 0
        var imports = 0
        var scans: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            (references, imports) = (0, 0)
            let start = clock.now
            for source in sources {
                let found = ImportScanner.references(in: source)
                references += found.count
                imports += found.filter { $0.form == .import }.count
            }
            scans.append(Measurement.seconds(clock.now - start))
        }
        let scan = scans.sorted()[scans.count / 2]
        print(
            "\nimport scan: \(Measurement.grouped(Double(files))) files in \(Measurement.milliseconds(scan)) "
                + "(\(Measurement.grouped(Double(files) / scan)) files/s), \(Measurement.grouped(Double(references))) references, "
                + "\(Measurement.grouped(Double(imports))) of them import declarations"
        )
    }

    /// A package of `modules` libraries, each depending on (and importing) up to three earlier
    /// ones.
    ///
    /// - Parameter withProducts: Make each library a product, as its Project.swift.md's
    ///   `library` role says, so that `ribcage lint` finds nothing. It makes `swift package
    ///   describe` some three times slower, so `bench test-cache`, whose goals are fractions of
    ///   `describe` on the package without them, leaves them out.
    func generatePackage(at root: URL, withProducts: Bool = true) throws {
        var targets: [String] = []
        var products: [String] = []
        var rows: [String] = []
        for index in 0..<modules {
            let dependencies = [index - 1, index / 2, index / 3].filter { $0 >= 0 && $0 != index }
            let unique = Array(Set(dependencies)).sorted()
            let names = unique.map { "\"M\($0)\"" }.joined(separator: ", ")
            targets.append("    .target(name: \"M\(index)\", dependencies: [\(names)]),")
            targets.append("    .testTarget(name: \"M\(index)Tests\", dependencies: [\"M\(index)\"]),")
            if withProducts {
                products.append("    .library(name: \"M\(index)\", targets: [\"M\(index)\"]),")
            }
            let tests = root.appendingPathComponent("Tests/M\(index)Tests")
            try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
            try Data(
                "import M\(index)\nimport Testing\n@Test func value() { #expect(value\(index) == \(index)) }\n"
                    .utf8
            )
            .write(to: tests.appendingPathComponent("M\(index)Tests.swift"))
            let folder = root.appendingPathComponent("Sources/M\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let imports = unique.map { "import M\($0)" }.joined(separator: "\n")
            try Data("\(imports)\npublic let value\(index) = \(index)\n".utf8).write(
                to: folder.appendingPathComponent("M\(index).swift"))
            let cell = unique.isEmpty ? "—" : unique.map { "M\($0)" }.joined(separator: ", ")
            rows.append("| M\(index) | Sources/M\(index) | Core | library | \(cell) | M\(index)Tests |")
        }
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(name: "Generated", products: [
            \(products.joined(separator: "\n"))
            ], targets: [
            \(targets.joined(separator: "\n"))
            ])
            """
        try Data(manifest.utf8).write(to: root.appendingPathComponent("Package.swift"))
        let project = """
            ## Modules

            | Module | Path | Layer | Role | Dependencies | Test target |
            |---|---|---|---|---|---|
            \(rows.joined(separator: "\n"))

            ## Layers

            | Layer | May depend on |
            |---|---|
            | Core | Core |
            """
        try Data(project.utf8).write(to: root.appendingPathComponent("Project.swift.md"))
    }
}
