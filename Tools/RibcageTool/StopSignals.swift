import ArgumentParser
import Dispatch
import Foundation
import RibcagePackage
import Synchronization

/// How the `ribcage` executable stops when told to: Ctrl-C's SIGINT, SIGTERM (a CI runner
/// cancelling a job, `timeout`, `kill`), SIGHUP (a closed terminal).
///
/// The first of them cancels the command's work instead of ending the process there. Each child
/// process the work started leads a session of its own (``Shell/stopsDescendants``), and a
/// cancelled run stops everything in it and waits: `swift test` goes with its test processes
/// (which SwiftPM puts in process groups of their own), `strace`, sandboxes and whatever the
/// tests started. Ended at once, the tool left all of those running, since a signal sent to one
/// process reaches only it. A second signal, for whoever finds the stopping too slow, ends the
/// process as the signal would have.
struct StopSignals: ~Copyable {
    /// The signals that stop a command.
    static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let sources: [any DispatchSourceSignal]
    private let watched: [Int32]
    private let shared: SharedSignal

    /// Starts watching for the stopping signals; the first one calls `stop`, after saying on
    /// standard error what is being stopped.
    ///
    /// A signal this process was started ignoring stays ignored: `nohup ribcage …` is not
    /// stopped by a hangup.
    init(stop: @escaping @Sendable () -> Void) {
        let shared = SharedSignal()
        watched = Self.stopping.filter { number in
            let previous = signal(number, SIG_IGN)
            return unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self)
        }
        sources = watched.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard shared.receive(number) else {
                    signal(number, SIG_DFL)
                    raise(number)
                    return
                }
                StandardError.write(
                    "ribcage: \(Self.name(of: number)): stopping the processes it started; "
                        + "send it again to end at once\n")
                stop()
            }
            source.resume()
            return source
        }
        self.shared = shared
    }

    /// The first stopping signal received, or `nil` when none came.
    var signalReceived: Int32? { shared.first }

    /// Stops watching; the signals watched take their default action again.
    consuming func end() {
        for source in sources { source.cancel() }
        for number in watched { signal(number, SIG_DFL) }
    }

    /// `SIGTERM` for 15, and so on for the stopping signals.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}

/// The first signal of several sources, set once from whichever queue sees it first.
private final class SharedSignal: Sendable {
    private let state = Mutex<Int32?>(nil)

    /// Records `number` if it is the first signal; false when one came before.
    func receive(_ number: Int32) -> Bool {
        state.withLock { first in
            guard first == nil else { return false }
            first = number
            return true
        }
    }

    var first: Int32? { state.withLock { $0 } }
}

/// The command's work, which the first stopping signal cancels, even one that comes before the
/// work has started.
private final class StoppableWork: Sendable {
    private let state = Mutex<(task: Task<Void, any Error>?, stopped: Bool)>((nil, false))

    func start(_ task: Task<Void, any Error>) {
        let stopped = state.withLock { state in
            state.task = task
            return state.stopped
        }
        if stopped { task.cancel() }
    }

    func stop() {
        state.withLock { state in
            state.stopped = true
            return state.task
        }?.cancel()
    }
}

/// A command whose work, stopped by a signal, ends well: a service's, such as `ribcage worker`,
/// which a service manager stops with SIGTERM and which then exits 0. Any other command stopped
/// by a signal exits with 128 plus its number, so a cancelled `ribcage test` is never taken for
/// a green one.
protocol StopsCleanlyOnSignal {}

extension RibcageCommand {
    /// The executable's entry point: ArgumentParser's `main()`, run so that ``StopSignals``
    /// stop the command's work, and the processes it started, before the process ends.
    public static func mainStoppingOnSignals() async {
        let command = await parsedCommand()
        let endsWellWhenStopped = type(of: command) is any StopsCleanlyOnSignal.Type
        // Watching first: a signal between the start of the work and the watch would end the
        // process with its children, in sessions of their own, left running.
        let stoppable = StoppableWork()
        let signals = StopSignals { stoppable.stop() }
        let work = Task {
            try await Shell.$stopsDescendants.withValue(true) {
                var command = command
                if var asyncCommand = command as? any AsyncParsableCommand {
                    try await asyncCommand.run()
                } else {
                    try command.run()
                }
            }
        }
        stoppable.start(work)
        let outcome = await work.result
        let signal = signals.signalReceived
        signals.end()
        if let signal {
            guard endsWellWhenStopped else {
                StandardError.write("ribcage: stopped by \(StopSignals.name(of: signal))\n")
                exit(withError: ExitCode(128 + signal))
            }
            // Stopped wherever it was, even before its work began: that is its clean end.
            if case .failure(let error) = outcome, error is CancellationError { return }
        }
        if case .failure(let error) = outcome {
            exit(withError: error)
        }
    }

    /// The command the arguments name, or the end of the process with ArgumentParser's message
    /// (or with the shell completions it was asked for, which may be async).
    private static func parsedCommand() async -> sending any ParsableCommand {
        do {
            return try await asyncParseAsRoot()
        } catch {
            exit(withError: error)
        }
    }
}
