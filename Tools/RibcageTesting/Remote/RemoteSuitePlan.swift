import Foundation
import RibcagePackage

/// Which of a run's test targets `ribcage test --remote-executor` sends to the server, and
/// which files each one's action holds besides the test bundle.
///
/// An action sees its input root and the worker's image, nothing else, so it holds what the
/// suite reads of the package: the folders of the test target and of every target it depends
/// on (fixtures beside a test, read through `#filePath`), the bundle's resources for those
/// targets, and what the suite's last traced run here was seen to read inside the package,
/// programs of the package it started included. The rest (the Swift runtime, `/usr`, python3,
/// tmux) is the worker image's.
///
/// A test target stays here when Project.swift.md's "Local-only test targets" table lists it,
/// or when it has XCTest tests: the action runs the bundle's Swift Testing tests only, since
/// XCTest writes no report of its own (SwiftPM writes it, from the output of its own runs).
package struct RemoteSuitePlan: Sendable {
    /// A test target that runs remotely, and the files of its action.
    package struct RemoteSuite: Sendable {
        package var suite: TestSuite
        /// The inputs that are not built (the targets' folders, fixtures, recorded reads), by
        /// absolute path; a folder stands for every file under it.
        package var files: [URL]
        /// The built inputs besides the bundle: the resources of the suite's targets, the
        /// package's programs it starts.
        package var builtFiles: [URL]
        /// What the built inputs, the bundle included, are made from: the test cache's key of the
        /// suite, and of each program's target. It stands for them in the action cache
        /// (``TestAction/standIn(packageRoot:testBundle:filter:skip:files:builtFrom:environment:workerImage:timeout:digests:)``).
        package var builtFrom: String
        /// Whether a green result may be kept under ``builtFrom``: only when the bundle was built
        /// in this run from the sources the key names (not `--skip-build`, nor a key that changed
        /// during the build).
        package var mayStore: Bool
        /// The actions its tests are split into: the whole target in one, unless
        /// ``split(into:inputs:testsByType:)`` dealt them out.
        package var shards: [RemoteTestShard]
    }

    /// A test target that runs here, and why.
    package struct LocalSuite: Sendable {
        package var suite: TestSuite
        package var reason: String
    }

    package var remote: [RemoteSuite] = []
    package var local: [LocalSuite] = []

    /// The table of Project.swift.md that keeps test targets local.
    package static let declaredTable = "Local-only test targets"

    /// The plan for `suites`.
    ///
    /// Blocking: it lists folders and reads test sources. Make it off the cooperative pool.
    ///
    /// - Parameters:
    ///   - keys: the test cache's key of each suite, by test target, as the sources are now.
    ///   - storable: the suites whose green results may be kept under their keys
    ///     (``RemoteSuite/mayStore``).
    ///   - recorded: what each suite's last traced run here read, by test target.
    ///   - declaredLocal: Project.swift.md's local-only test targets, with why.
    ///   - buildFolder: where the test bundle and its resources are (`.build/debug`).
    ///   - importedModules: the modules a Swift source imports, read by a parser (a line
    ///     `import XCTest` inside a string literal imports nothing).
    package init(
        suites: [TestSuite], inputs: TestCacheInputs, keys: [String: String], storable: Set<String>,
        recorded: [String: [RecordedInput]],
        declaredLocal: [String: String], buildFolder: URL, importedModules: (String) -> [String]
    ) throws {
        let resources = try FileManager.default.contentsOfDirectory(atPath: buildFolder.path)
        for suite in suites {
            if let reason = declaredLocal[suite.testTarget] {
                local.append(
                    LocalSuite(
                        suite: suite, reason: "Project.swift.md's \(Self.declaredTable) lists it: \(reason)"))
                continue
            }
            if let file = try Self.fileImportingXCTest(
                of: suite.testTarget, in: inputs, importedModules: importedModules)
            {
                local.append(
                    LocalSuite(
                        suite: suite,
                        reason: "\(file) imports XCTest, whose tests only `swift test` runs and reports"))
                continue
            }
            guard let key = keys[suite.testTarget] else {
                local.append(LocalSuite(suite: suite, reason: "it has no test cache key"))
                continue
            }
            var files: [URL] = []
            var builtFiles: [URL] = []
            var builtFrom = ["test target \(suite.testTarget) \(key)"]
            var closure = try inputs.closure(of: suite.testTarget)
            for path in try inputs.closureFolders(of: suite.testTarget) {
                files.append(
                    path.hasPrefix("/")
                        ? URL(fileURLWithPath: path, isDirectory: true)
                        : inputs.root.appendingPathComponent(path, isDirectory: true))
            }
            // By what is there now: a file absent when it was recorded and there since is an input.
            for input in recorded[suite.testTarget] ?? [] {
                switch input.kind {
                case .file, .executable:
                    let location = input.location(root: inputs.root)
                    guard Self.isInside(location, inputs) else { continue }
                    var isFolder: ObjCBool = false
                    if FileManager.default.fileExists(atPath: location, isDirectory: &isFolder),
                        !isFolder.boolValue
                    {
                        files.append(URL(fileURLWithPath: location))
                    }
                case .product:
                    // A program of the package the suite started: its binary as built now, and
                    // the resources of what it is built from.
                    // A target since removed has no program to send.
                    guard inputs.package.targets.contains(where: { $0.name == input.path }) else { continue }
                    for product in inputs.package.products
                    where product.type == "executable" && product.targets.contains(input.path) {
                        let binary = buildFolder.appendingPathComponent(product.name)
                        if FileManager.default.isExecutableFile(atPath: binary.path) {
                            builtFiles.append(binary)
                        }
                    }
                    closure += try inputs.closure(of: input.path)
                    builtFrom.append(
                        "program of \(input.path) \(try inputs.sourcesDigest(ofTarget: input.path))")
                case .listing:
                    // A folder the suite listed: the worker is shown its files, and the key
                    // names what is in it now, so a file added there is a new key even when the
                    // suite did not read it.
                    let location = input.location(root: inputs.root)
                    guard Self.isInside(location, inputs), location != inputs.root.standardizedFileURL.path
                    else { continue }
                    builtFrom.append(
                        "listing of \(input.path) \(RecordedInput.digest(of: .listing, at: location))")
                    for name in RecordedInput.visibleNames(inFolder: location) ?? [] {
                        let entry = URL(fileURLWithPath: location).appendingPathComponent(name)
                        var isFolder: ObjCBool = false
                        if FileManager.default.fileExists(atPath: entry.path, isDirectory: &isFolder),
                            !isFolder.boolValue
                        {
                            files.append(entry)
                        }
                    }
                }
            }
            let closureNames = Set(closure)
            for name in resources where name.hasSuffix(".resources") {
                let stem = name.dropLast(".resources".count)
                guard let underscore = stem.lastIndex(of: "_"),
                    closureNames.contains(String(stem[stem.index(after: underscore)...]))
                else { continue }
                builtFiles.append(buildFolder.appendingPathComponent(name, isDirectory: true))
            }
            remote.append(
                RemoteSuite(
                    suite: suite, files: files, builtFiles: builtFiles,
                    builtFrom: builtFrom.sorted().joined(separator: "\n") + "\n",
                    mayStore: storable.contains(suite.testTarget), shards: [.whole(suite.testTarget)]))
        }
    }

    /// Splits each remote test target into at most `count` actions by the top-level suite types
    /// its sources declare (``RemoteTestShard/split(_:testsByType:into:)``).
    ///
    /// Blocking: it reads and parses the test targets' sources. Call it off the cooperative pool.
    ///
    /// - Parameter testsByType: for the module and the sources of one test target, the `@Test` functions under
    ///   each top-level type they declare, by the type's name (RibcageLint's
    ///   `TestSuiteOutline`).
    package mutating func split(
        into count: Int, inputs: TestCacheInputs,
        testsByType: (_ module: String, _ sources: [String]) -> [String: Int]
    ) throws {
        guard count > 1 else { return }
        for index in remote.indices {
            let testTarget = remote[index].suite.testTarget
            guard let target = inputs.package.targets.first(where: { $0.name == testTarget }) else {
                continue
            }
            let sources = try target.sources.filter { $0.hasSuffix(".swift") }.sorted().map { source in
                try String(
                    contentsOf: inputs.root.appendingPathComponent(target.path + "/" + source),
                    encoding: .utf8)
            }
            remote[index].shards = RemoteTestShard.split(
                testTarget,
                testsByType: testsByType(TestCaseFilter.moduleName(ofTarget: testTarget), sources),
                into: count)
        }
    }

    /// Whether `path` is in the package or one of its local dependencies: what is elsewhere is
    /// the worker image's.
    private static func isInside(_ path: String, _ inputs: TestCacheInputs) -> Bool {
        ([inputs.root] + inputs.localDependencies).contains {
            RecordedInputSelection.isInside(path, $0.standardizedFileURL.path)
        }
    }

    /// The first Swift file of the test target's own folder that imports XCTest, relative to
    /// the package's root; nil when none does.
    static func fileImportingXCTest(
        of testTarget: String, in inputs: TestCacheInputs, importedModules: (String) -> [String]
    ) throws -> String? {
        guard let target = inputs.package.targets.first(where: { $0.name == testTarget }) else { return nil }
        for source in target.sources.sorted() where source.hasSuffix(".swift") {
            let relative = target.path + "/" + source
            let text = try String(contentsOf: inputs.root.appendingPathComponent(relative), encoding: .utf8)
            if importedModules(text).contains("XCTest") { return relative }
        }
        return nil
    }
}
