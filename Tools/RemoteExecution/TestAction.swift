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
/// The digest of ``action`` is the run's key: the same bundle, files, filter and environment
/// give the same key on any machine whose paths are the same.
public struct TestAction: Sendable {
    /// Where the xUnit report lands, relative to the package's folder; an output of the action.
    public static let xunitPath = ".ribcage-remote/xunit.xml"
    /// Where the Swift Testing event stream (version 0) lands; an output of the action.
    public static let eventsPath = ".ribcage-remote/events.jsonl"

    /// A file the action needs could not be read.
    public struct UnreadableInput: Error, CustomStringConvertible {
        /// The file.
        public var path: String
        /// What reading it said.
        public var reason: String
        /// The file and the reason, in a sentence.
        public var description: String { "cannot read \(path) for the remote test action: \(reason)" }
    }

    /// What runs: the bundle with Swift Testing's arguments.
    public let command: REAPI.Command
    /// The command's and the input root's digests, and the timeout.
    public let action: REAPI.Action
    /// The key of the run, and the name to execute.
    public let actionDigest: BlobDigest
    /// Every blob the server must hold before the action can run: the files, the `Directory`
    /// messages of the input root, the Command and the Action.
    public let blobs: [BlobDigest: Data]

    /// A test action for `testBundle`, built in the package at `packageRoot`.
    ///
    /// - Parameters:
    ///   - filter: Swift Testing's `--filter`, a regular expression over test identifiers (a
    ///     test target's module name selects its suites); nil runs every suite.
    ///   - files: the other files the run reads, by absolute path: the bundle's resources, the
    ///     fixtures and the inputs a traced run recorded.
    ///   - environment: the run's whole environment; nothing else is passed.
    ///   - timeout: how long the worker lets the run take.
    /// - Throws: ``UnreadableInput`` when the bundle or one of `files` cannot be read.
    public init(
        packageRoot: URL, testBundle: URL, filter: String?, files: [URL], environment: [String: String],
        timeout: Duration
    ) throws {
        let root = packageRoot.standardizedFileURL.path
        var tree = InputTree()
        for file in [testBundle] + files {
            let path = file.standardizedFileURL.path
            do {
                let contents = try Data(contentsOf: file.standardizedFileURL)
                tree.files[String(path.drop { $0 == "/" })] = InputTree.File(
                    contents, isExecutable: FileManager.default.isExecutableFile(atPath: path))
            } catch {
                throw UnreadableInput(path: path, reason: "\(error)")
            }
        }

        var command = REAPI.Command()
        command.arguments =
            [
                Self.relative(testBundle.standardizedFileURL.path, to: root), "--testing-library",
                "swift-testing",
                "--xunit-output", Self.xunitPath,
                "--event-stream-output-path", Self.eventsPath, "--event-stream-version", "0",
            ] + (filter.map { ["--filter", $0] } ?? [])
        // REAPI wants both lists sorted, so that equal commands have equal digests.
        command.environmentVariables = environment.sorted { $0.key < $1.key }.map { name, value in
            var variable = REAPI.Command.EnvironmentVariable()
            variable.name = name
            variable.value = value
            return variable
        }
        command.outputPaths = [Self.eventsPath, Self.xunitPath].sorted()
        command.workingDirectory = String(root.drop { $0 == "/" })

        let (inputRoot, treeBlobs) = try tree.merkle()
        let (commandDigest, commandBytes) = try BlobDigest.of(command)
        var action = REAPI.Action()
        action.commandDigest = commandDigest.message
        action.inputRootDigest = inputRoot.message
        let seconds = timeout.components.seconds
        action.timeout = .init(seconds: seconds, nanos: Int32(timeout.components.attoseconds / 1_000_000_000))
        let (actionDigest, actionBytes) = try BlobDigest.of(action)

        var blobs = treeBlobs
        blobs[commandDigest] = commandBytes
        blobs[actionDigest] = actionBytes
        self.command = command
        self.action = action
        self.actionDigest = actionDigest
        self.blobs = blobs
    }

    /// `path` from `root`, as `./bin` when it is inside, else as it is.
    private static func relative(_ path: String, to root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? "./" + path.dropFirst(prefix.count) : path
    }

    /// The reports a run of this action left, read from the server's CAS: each nil when the run
    /// wrote none (a bundle that crashed before it could).
    public static func reports(of result: REAPI.ActionResult, from client: RemoteExecutionClient)
        async throws(RemoteExecutionError) -> (xunit: Data?, events: Data?)
    {
        let byPath = Dictionary(
            result.outputFiles.map { ($0.path, BlobDigest($0.digest)) },
            uniquingKeysWith: { first, _ in first })
        let wanted = [xunitPath, eventsPath].compactMap { byPath[$0] }
        let blobs = try await client.read(wanted)
        return (byPath[xunitPath].flatMap { blobs[$0] }, byPath[eventsPath].flatMap { blobs[$0] })
    }
}
