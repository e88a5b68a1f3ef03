import Foundation

/// A run of a built test bundle's Swift Testing suites as a REAPI action: the command, the
/// input root it runs on, and the reports it leaves as outputs.
///
/// The input root holds each file at its absolute path on this machine, and the command runs
/// in the package's folder. A worker whose sandbox root is the input root then resolves every
/// path as this machine does: `#filePath`, a fixture next to a test's source, the bundle's
/// resources. What is not a file of the package comes from the worker's image: the Swift
/// runtime at the toolchain's path, `/usr`, `/bin` and `/lib` (see `Tools/reapi/engine`).
///
/// The digest of ``action`` is the run's key: the same bundle, files, filter, environment and
/// worker image give the same key on any machine whose paths are the same. The image is named
/// by the caller (``init(packageRoot:testBundle:filter:files:environment:workerImage:timeout:digests:)``),
/// since the Swift runtime, the C library and the tools it holds change results as much as the
/// files do, and two pools with different images must not share results.
public struct TestAction: Sendable {
    /// Where the xUnit report lands, relative to the package's folder; an output of the action.
    public static let xunitPath = ".ribcage-remote/xunit.xml"
    /// Where the Swift Testing event stream (version 0) lands; an output of the action.
    public static let eventsPath = ".ribcage-remote/events.jsonl"
    /// The run's home folder, relative to the package's folder, when the caller names no `HOME`:
    /// `HOME` then names it by its absolute path. An empty folder of the input root, so a test
    /// that keeps something under `~` (Foundation's `UserDefaults`, a tool's settings) has a
    /// place of its own that starts empty, where a worker's sandbox would leave `HOME` unset.
    public static let homePath = ".ribcage-remote/home"

    /// A file the action needs could not be read, or the action cannot be laid out.
    public struct UnreadableInput: Error, CustomStringConvertible {
        /// The file.
        public var path: String
        /// What reading it said.
        public var reason: String
        /// The file and the reason, in a sentence.
        public var description: String { "cannot read \(path) for the remote test action: \(reason)" }
    }

    /// The property of the Command's and the Action's `Platform` that names the worker image.
    public static let workerImageProperty = "ribcage-worker-image"

    /// What runs: the bundle with Swift Testing's arguments.
    public let command: REAPI.Command
    /// The command's and the input root's digests, and the timeout.
    public let action: REAPI.Action
    /// The key of the run, and the name to execute.
    public let actionDigest: BlobDigest
    /// Every blob the server must hold before the action can run: the files, the `Directory`
    /// messages of the input root, the Command and the Action.
    public let blobs: [BlobDigest: BlobSource]
    /// The digest of each file of the input root, by its path there (the absolute path without
    /// its first `/`).
    public let inputs: [String: BlobDigest]

    /// A test action for `testBundle`, built in the package at `packageRoot`.
    ///
    /// - Parameters:
    ///   - filter: Swift Testing's `--filter`, a regular expression over test identifiers (a
    ///     test target's module name selects its suites); nil runs every suite.
    ///   - skip: Swift Testing's `--skip`: the tests never to start (the quarantine's).
    ///   - files: the other files the run reads, by absolute path: the bundle's resources (a
    ///     folder stands for every file under it, as a `.resources` folder does), the fixtures
    ///     and the inputs a traced run recorded. Links are followed: the file they lead to is
    ///     put at the link's path.
    ///   - environment: the variables the run is given (a worker may add defaults of its own,
    ///     as REAPI allows); `HOME` is ``homePath`` unless it names another.
    ///   - workerImage: what names the worker's image (for example the toolchain's
    ///     `swift --version` and the OS), put in the `Platform` of the Command and the Action.
    ///   - timeout: how long the worker lets the run take.
    ///   - digests: the file digests already taken, shared by the actions of one run so each
    ///     file is hashed once.
    /// Blocking: it hashes every file not yet in `digests`. Make actions off the cooperative pool.
    ///
    /// - Throws: ``UnreadableInput`` when the bundle or one of `files` cannot be read, or when
    ///   none of them is under `packageRoot` (REAPI wants the working directory in the tree).
    public init(
        packageRoot: URL, testBundle: URL, filter: String?, skip: String? = nil, files: [URL],
        environment: [String: String], workerImage: String, timeout: Duration,
        digests: FileDigests = FileDigests()
    ) throws {
        try self.init(
            packageRoot: packageRoot, testBundle: testBundle, inputs: [testBundle] + files, standIns: [:],
            filter: filter, skip: skip, environment: environment, workerImage: workerImage, timeout: timeout,
            digests: digests)
    }

    /// The action that stands for a run in the action cache: the run's own action, but for the
    /// test bundle and the other built files, which give way to a file holding `builtFrom`, the
    /// key of the sources they are built from.
    ///
    /// SwiftPM links every test target of a package into one bundle, so its bytes change when
    /// any target does, and with them every run's action digest: keyed by the bundle, a change
    /// to one module would run every test target again. Keyed by what the suite's own build
    /// closure is made of (the test cache's key, ``TestCacheKey`` in RibcageTesting), a result
    /// is found again for as long as that and the suite's other inputs stay the same. Only
    /// `files` are hashed, never the bundle, so a run that finds every result this way never
    /// reads it. Look this action's digest up with
    /// ``RemoteExecutionClient/cachedResult(of:)`` and store a run's green result under it with
    /// ``RemoteExecutionClient/storeResult(_:of:)``; it is never executed.
    ///
    /// - Parameters:
    ///   - files: the inputs that are not built: the targets' folders, fixtures, recorded reads.
    ///   - builtFrom: what the built inputs are made from, as one text.
    public static func standIn(
        packageRoot: URL, testBundle: URL, filter: String?, skip: String? = nil, files: [URL],
        builtFrom: String,
        environment: [String: String], workerImage: String, timeout: Duration,
        digests: FileDigests = FileDigests()
    ) throws -> TestAction {
        let keyPath = packageRoot.standardizedFileURL.appendingPathComponent(Self.builtFromPath).path
        return try TestAction(
            packageRoot: packageRoot, testBundle: testBundle, inputs: files,
            standIns: [keyPath: InputTree.File(Data(builtFrom.utf8))], filter: filter, skip: skip,
            environment: environment, workerImage: workerImage, timeout: timeout, digests: digests)
    }

    /// Where a stand-in action holds the key of its built inputs, relative to the package.
    public static let builtFromPath = ".ribcage-remote/built-from"

    /// Whether `run` read the same files as this stand-in stands for: each of its inputs but the
    /// key's file has the same digest in `run`. A file changed between the making of the two
    /// would otherwise put the run's result under the old file's key.
    public func standsIn(for run: TestAction) -> Bool {
        inputs.allSatisfy { path, digest in
            path.hasSuffix("/" + Self.builtFromPath) || run.inputs[path] == digest
        }
    }

    private init(
        packageRoot: URL, testBundle: URL, inputs: [URL], standIns: [String: InputTree.File], filter: String?,
        skip: String?, environment: [String: String], workerImage: String, timeout: Duration,
        digests: FileDigests
    ) throws {
        let root = packageRoot.standardizedFileURL.path
        var tree = InputTree()
        var environment = environment
        if environment["HOME"] == nil {
            let home = root.hasSuffix("/") ? root + Self.homePath : root + "/" + Self.homePath
            environment["HOME"] = home
            tree.folders.insert(String(home.drop { $0 == "/" }))
        }
        for (path, file) in standIns { tree.files[String(path.drop { $0 == "/" })] = file }
        for file in try Self.regularFiles(inputs) {
            let path = file.standardizedFileURL.path
            // The mode's bits (of what a link leads to), not `isExecutableFile`, which asks what
            // this user may do.
            let target = file.standardizedFileURL.resolvingSymlinksInPath().path
            let mode: Int
            do {
                mode =
                    try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int ?? 0
            } catch {
                throw UnreadableInput(path: path, reason: "\(error)")
            }
            tree.files[String(path.drop { $0 == "/" })] = InputTree.File(
                path: target, digest: try digests.digest(ofFile: target), isExecutable: mode & 0o111 != 0)
        }
        let rootPrefix = root.hasSuffix("/") ? root : root + "/"
        guard tree.files.keys.contains(where: { ("/" + $0).hasPrefix(rootPrefix) }) else {
            throw UnreadableInput(
                path: root, reason: "no input is under the package's folder, the command's working directory")
        }

        var command = REAPI.Command()
        command.arguments =
            [
                Self.relative(testBundle.standardizedFileURL.path, to: root), "--testing-library",
                "swift-testing",
                "--xunit-output", Self.xunitPath,
                "--event-stream-output-path", Self.eventsPath, "--event-stream-version", "0",
            ] + (filter.map { ["--filter", $0] } ?? []) + (skip.map { ["--skip", $0] } ?? [])
        // REAPI wants both lists sorted by their UTF-8 bytes, so that equal commands have equal
        // digests.
        command.environmentVariables = environment.sorted { InputTree.precedes($0.key, $1.key) }.map {
            name, value in
            var variable = REAPI.Command.EnvironmentVariable()
            variable.name = name
            variable.value = value
            return variable
        }
        command.outputPaths = [Self.eventsPath, Self.xunitPath].sorted(by: InputTree.precedes)
        command.workingDirectory = String(root.drop { $0 == "/" })
        var platform = REAPI.Platform()
        var image = REAPI.Platform.Property()
        image.name = Self.workerImageProperty
        image.value = workerImage
        platform.properties = [image]
        command.platform = platform

        let (inputRoot, treeBlobs) = try tree.merkle()
        let (commandDigest, commandBytes) = try BlobDigest.of(command)
        var action = REAPI.Action()
        action.commandDigest = commandDigest.message
        action.inputRootDigest = inputRoot.message
        action.platform = platform
        let seconds = timeout.components.seconds
        action.timeout = .init(seconds: seconds, nanos: Int32(timeout.components.attoseconds / 1_000_000_000))
        let (actionDigest, actionBytes) = try BlobDigest.of(action)

        var blobs = treeBlobs
        blobs[commandDigest] = .bytes(commandBytes)
        blobs[actionDigest] = .bytes(actionBytes)
        self.command = command
        self.action = action
        self.inputs = tree.files.mapValues(\.digest)
        self.actionDigest = actionDigest
        self.blobs = blobs
    }

    /// `urls`, with each folder among them replaced by the regular files under it (hidden ones
    /// included: a resource may start with a dot), sorted for a stable error on the first bad one.
    private static func regularFiles(_ urls: [URL]) throws -> [URL] {
        var files: [URL] = []
        for url in urls {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue
            else {
                files.append(url)
                continue
            }
            guard
                let walk = FileManager.default.enumerator(
                    at: url, includingPropertiesForKeys: [.isRegularFileKey])
            else { throw UnreadableInput(path: url.path, reason: "the folder cannot be listed") }
            var inside: [URL] = []
            for case let item as URL in walk {
                let values = try item.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey])
                if values.isRegularFile == true { inside.append(item) }
            }
            files += inside.sorted { $0.path < $1.path }
        }
        return files
    }

    /// `path` from `root`, as `./bin` when it is inside, else as it is.
    private static func relative(_ path: String, to root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? "./" + path.dropFirst(prefix.count) : path
    }

    /// What a run of a test action left, read back from the server.
    public struct Reports: Sendable {
        /// The xUnit report; nil when the run wrote none (a bundle that crashed first).
        public var xunit: Data?
        /// The Swift Testing event stream; nil when the run wrote none.
        public var events: Data?
        /// What the run wrote to its standard output.
        public var standardOutput: Data
        /// What the run wrote to its standard error.
        public var standardError: Data
    }

    /// The reports and the output a run of this action left, read from the server's CAS in one
    /// batch.
    public static func reports(of result: REAPI.ActionResult, from client: RemoteExecutionClient)
        async throws(RemoteExecutionError) -> Reports
    {
        let byPath = Dictionary(
            result.outputFiles.map { ($0.path, BlobDigest($0.digest)) },
            uniquingKeysWith: { first, _ in first })
        // Output inline in the result needs no read; otherwise it is a blob like the reports.
        let standardOutput = result.hasStdoutDigest ? BlobDigest(result.stdoutDigest) : nil
        let standardError = result.hasStderrDigest ? BlobDigest(result.stderrDigest) : nil
        let wanted = ([byPath[xunitPath], byPath[eventsPath]] + [standardOutput, standardError]).compactMap {
            $0
        }
        let blobs = try await client.read(wanted.filter { $0.size > 0 })
        func output(_ raw: Data, _ digest: BlobDigest?) -> Data {
            raw.isEmpty ? digest.flatMap { blobs[$0] } ?? Data() : raw
        }
        return Reports(
            xunit: byPath[xunitPath].map { blobs[$0] ?? Data() },
            events: byPath[eventsPath].map { blobs[$0] ?? Data() },
            standardOutput: output(result.stdoutRaw, standardOutput),
            standardError: output(result.stderrRaw, standardError))
    }
}
