import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signals as an async sequence, for a terminal program's run loop.
///
/// ```swift
/// for await signal in SignalEvents.stream([SIGWINCH, SIGTERM]) { … }
/// ```
///
/// The signals are caught from the moment ``stream(_:)`` returns: a signal that arrives before
/// the stream is iterated waits in it, so a program that sets up its stream before it changes
/// the terminal never misses the SIGINT that should restore it.
///
/// The handler does one async-signal-safe thing: it writes the signal's number to a pipe (the
/// "self-pipe" technique). A thread of TerminalRuntime's own reads the pipe and yields each number to
/// the streams that asked for it, so the work a signal calls for (restoring the terminal,
/// redrawing) runs in the program, on the main actor, where anything is allowed. Ending an
/// iteration puts back the actions the signals had before, once no other stream wants them.
public enum SignalEvents {
    /// The signals in `signals`, as they arrive from the moment this returns.
    ///
    /// - Throws: ``TerminalError/cannotCatchSignals(_:)`` when the process's signal pipe cannot
    ///   be made, because the process or the system is out of file descriptors. Nothing was
    ///   changed then, and a later call tries again.
    public static func stream(_ signals: [Int32]) throws(TerminalError) -> AsyncStream<Int32> {
        let pipe = try SignalPipe.shared()
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .unbounded)
        let subscription = pipe.subscribe(Set(signals), continuation)
        continuation.onTermination = { _ in pipe.unsubscribe(subscription) }
        return stream
    }
}

/// The process's one signal pipe: the handler that writes to it, the thread that reads it, and
/// the streams that want each signal.
final class SignalPipe: Sendable {
    private static let made = Mutex<SignalPipe?>(nil)

    /// The process's pipe, made by the first call that succeeds.
    static func shared() throws(TerminalError) -> SignalPipe {
        try made.withLock { (made: inout SignalPipe?) throws(TerminalError) -> SignalPipe in
            if let made { return made }
            let pipe = try SignalPipe()
            made = pipe
            return pipe
        }
    }

    private struct Subscriber {
        var signals: Set<Int32>
        var continuation: AsyncStream<Int32>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        /// For each signal caught, the action it had before, put back when no stream wants it.
        var previousActions: [Int32: sigaction] = [:]
    }

    private let state = Mutex(State())
    private let readEnd: Int32

    private init() throws(TerminalError) {
        var ends: [Int32] = [-1, -1]
        // Without a pipe no signal could be caught at all: a process out of descriptors
        // (EMFILE, ENFILE) hears of it before it changes the terminal.
        guard pipe(&ends) == 0 else {
            throw .cannotCatchSignals(String(cString: strerror(errno)))
        }
        // Not inherited by the programs this one starts.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe drops a signal rather than block the handler; a signal that arrives
        // 65,536 times before the reader wakes is coalesced, as the kernel coalesces signals.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        readEnd = ends[0]
        signalPipeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in readForever() }
        thread.name = "TerminalRuntime.SignalEvents"
        thread.start()
    }

    /// Registers `continuation` for `signals`, then installs the handler for those not caught
    /// yet, so that a signal arriving right after finds its stream.
    func subscribe(_ signals: Set<Int32>, _ continuation: AsyncStream<Int32>.Continuation) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(signals: signals, continuation: continuation)
            for number in signals where state.previousActions[number] == nil {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = signalPipeHandler
                action.sa_flags = SA_RESTART
                sigemptyset(&action.sa_mask)
                var previous = sigaction()
                sigaction(number, &action, &previous)
                state.previousActions[number] = previous
            }
            return id
        }
    }

    /// Forgets a stream, and puts back the previous action of each signal no stream wants now.
    func unsubscribe(_ id: Int) {
        state.withLock { state in
            guard let gone = state.subscribers.removeValue(forKey: id) else { return }
            let stillWanted = state.subscribers.values.reduce(into: Set<Int32>()) { $0.formUnion($1.signals) }
            for number in gone.signals.subtracting(stillWanted) {
                guard var previous = state.previousActions.removeValue(forKey: number) else { continue }
                sigaction(number, &previous, nil)
            }
        }
    }

    /// The reading thread: blocks in `read(2)` for the process's lifetime, as signals may be
    /// caught again at any time.
    private func readForever() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            for byte in buffer[0..<count] { deliver(Int32(byte)) }
        }
    }

    private func deliver(_ number: Int32) {
        let continuations = state.withLock { state in
            state.subscribers.values.filter { $0.signals.contains(number) }.map(\.continuation)
        }
        for continuation in continuations { continuation.yield(number) }
    }
}

/// The pipe's write end, for the handler: a lock-free atomic, as a handler may read nothing else.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Writes the signal's number to the pipe: `write(2)` is async-signal-safe, and `errno` is kept
/// for the code the signal interrupted.
private let signalPipeHandler: @convention(c) (Int32) -> Void = { number in
    let savedError = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
    errno = savedError
}
