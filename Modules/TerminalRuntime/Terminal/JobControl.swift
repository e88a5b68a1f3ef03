#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A shell's job control as a full-screen program meets it: stopping itself as Ctrl-Z asks, and
/// being stopped while it is a background job.
///
/// Swift's concurrency runs the main actor on threads of the dispatch pool, which block every
/// signal. Two things break on such a thread: a stop signal a program sends itself is taken by
/// another thread a moment later, and the terminal driver, which stops a background job that
/// changes the terminal's settings (SIGTTOU), lets it through when that thread blocks SIGTTOU,
/// so a job continued in the background (`kill -CONT`) would draw over its shell.
enum JobControl {
    /// Runs `body` with `signal` unblocked on the calling thread.
    static func unblocking<Result>(_ signal: Int32, _ body: () -> Result) -> Result {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, signal)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &signals, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        return body()
    }

    /// Stops the process with `stopSignal`'s default action, as Ctrl-Z does for SIGTSTP, and
    /// returns once it is continued. The action the signal had is put back afterwards, so a
    /// program's own handler (``SignalEvents``') hears the next one; and the calling thread takes
    /// the signal itself before `kill` returns.
    static func stop(with stopSignal: Int32) {
        unblocking(stopSignal) {
            var stopping = sigaction()
            stopping.__sigaction_handler.sa_handler = SIG_DFL
            var kept = sigaction()
            sigaction(stopSignal, &stopping, &kept)
            kill(getpid(), stopSignal)
            sigaction(stopSignal, &kept, nil)
        }
    }
}
