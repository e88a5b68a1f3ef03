import ArgumentParser
import Foundation
import RemoteExecution
import RibcagePackage
import RibcageTesting

/// `ribcage worker`: a bot of a Remote Workers API scheduler (BuildGrid), so that this machine
/// runs the actions `ribcage test --remote-executor` sends to that scheduler.
struct WorkerCommand: AsyncParsableCommand, StopsCleanlyOnSignal {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run remote test actions for a scheduler's pool (a Remote Workers API bot).",
        discussion: """
            Opens a bot session with the scheduler at --bots-server (BuildGrid: its Bots service), \
            takes one action at a time and runs it with buildbox-run against the scheduler's CAS, \
            in a bubblewrap sandbox holding the action's inputs and this machine's /usr, /bin, \
            /lib, /lib64 and Swift toolchain, read-only. The session offers this machine's worker \
            image (swift --version, the system, the architecture) as the ribcage-worker-image \
            property, so it only gets actions built for it. Two workers make a pool of two; a \
            worker that stops reporting loses its session and the scheduler gives its action to \
            another. Runs until SIGTERM, SIGINT or SIGHUP, which stop the action it runs \
            first; a lost scheduler is waited for.
            """
    )

    @Option(help: "The scheduler's Bots service: grpc://HOST:PORT or unix:PATH.")
    var botsServer: String

    @Option(help: "The CAS the actions' inputs and outputs live in (default: the --bots-server).")
    var casServer: String?

    @Option(help: "The scheduler's instance name (default: its default instance).")
    var instance = ""

    @Option(help: "This bot's name in the pool (default: HOST-PID).")
    var botID: String?

    @Option(help: "The buildbox-run executable (default: buildbox-run on PATH).")
    var runner = "buildbox-run"

    @Option(help: "Where leases' scratch files go (default: the temporary folder).")
    var scratch: String?

    @Flag(help: "Print each report to the scheduler and its answer.")
    var verbose = false

    func validate() throws {
        for endpoint in [botsServer, casServer].compactMap(\.self) {
            do {
                _ = try RemoteEndpoint(endpoint)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        if botID?.isEmpty == true { throw ValidationError("--bot-id takes a non-empty name.") }
    }

    func run() async throws {
        try await RibcageError.reported {
            let bots = try RemoteEndpoint(botsServer)
            let cas = try casServer.map { try RemoteEndpoint($0) } ?? bots
            guard let runnerPath = Shell.executablePath(runner) else {
                throw RibcageError.commandNotFound(
                    runner, hint: "Tools/reapi/engine fetch prints the folder that holds buildbox-run")
            }
            let version = try await Shell.run("swift", ["--version"])
            guard version.succeeded else {
                throw RibcageError.commandNotFound(
                    "swift", hint: "the worker image is named by swift --version")
            }
            let image = RemoteTestRunner.workerImage(toolchain: version.outputText)
            let name =
                botID ?? "\(Self.hostName())-\(ProcessInfo.processInfo.processIdentifier)"
            var worker = RemoteWorker(
                botID: name, properties: [(TestAction.workerImageProperty, image)],
                runner: BuildboxRunner(
                    runner: runnerPath, casURL: BuildboxRunner.casURL(for: cas), instanceName: instance,
                    imageFolders: BuildboxRunner.imageFolders(),
                    scratch: scratch.map { URL(fileURLWithPath: $0) }
                        ?? FileManager.default.temporaryDirectory),
                log: { StandardError.write("worker \(name): \($0)\n") })
            if verbose { worker.trace = { StandardError.write("worker \(name): \($0)\n") } }
            StandardError.write("worker \(name): image \"\(image)\", scheduler \(bots)\n")
            // SIGTERM or SIGINT cancels this work (``StopSignals``): the action running stops
            // and its runner is waited for, rather than left running an action nobody reads.
            do {
                try await serve(worker, at: bots, cas: cas == bots ? nil : cas)
            } catch is CancellationError {
                // Told to stop during the pause before a new session.
            }
            if Task.isCancelled { worker.log("stopped; the actions it ran were stopped first") }
        }
    }

    /// The machine's name as the kernel knows it. Not `ProcessInfo.hostName`, which may ask DNS
    /// for a canonical name and wait on it.
    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "worker" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Works for the scheduler until cancelled, opening a new session after each failure, with
    /// a pause that grows to 10 s while the scheduler stays away.
    private func serve(
        _ worker: RemoteWorker<BuildboxRunner>, at endpoint: RemoteEndpoint, cas: RemoteEndpoint?
    )
        async throws
    {
        var pause = Duration.milliseconds(500)
        while !Task.isCancelled {
            do {
                try await RemoteExecutionClient.withClient(endpoint, instanceName: instance) { client in
                    if let cas {
                        try await RemoteExecutionClient.withClient(cas, instanceName: instance) { casClient in
                            try await worker.work(on: client, cas: casClient)
                        }
                    } else {
                        try await worker.work(on: client)
                    }
                }
                // `work` returns only when this task is cancelled.
                return
            } catch {
                worker.log("\(error); a new session in \(pause)")
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(10))
        }
    }
}
