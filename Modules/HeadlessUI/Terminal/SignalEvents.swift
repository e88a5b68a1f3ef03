import Dispatch

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
/// Nothing runs inside a signal handler: the signals' default actions are set to "ignore",
/// and dispatch sources (a `signalfd` on Linux) report them on a queue, from where they are
/// yielded to the stream. So the run loop does the work — restoring the terminal, redrawing —
/// on the main actor, where anything is allowed. Ending the iteration cancels the sources and
/// puts the default actions back.
public enum SignalEvents {
    /// The signals in `signals`, as they arrive.
    public static func stream(_ signals: [Int32]) -> AsyncStream<Int32> {
        AsyncStream { continuation in
            let sources = signals.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                return source
            }
            let box = SignalSources(sources)
            continuation.onTermination = { _ in
                for source in box.sources { source.cancel() }
                for number in signals { signal(number, SIG_DFL) }
            }
        }
    }
}

/// Dispatch sources handed to the stream's termination handler; they may be cancelled from any
/// thread.
private final class SignalSources: @unchecked Sendable {
    let sources: [any DispatchSourceSignal]
    init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
}
