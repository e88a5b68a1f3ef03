import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ends the probe as soon as the process that started it is gone, however it went.
///
/// A test runs the probe with a pipe on its standard input and never writes to it; the kernel
/// closes the pipe's other end when the test process ends, even by SIGKILL or a crash, and the
/// probe's read then returns end-of-file. Without this, a probe left in one of its endless loops
/// after the test process crashed kept writing, and kept the test runner's pipes open, so the
/// run never finished.
///
/// Linux's `PR_SET_PDEATHSIG` would not do: it fires when the *thread* that spawned the child
/// ends, and a test spawns its children from pool threads that may come and go.
///
/// Standard input that is not a pipe (a terminal, `/dev/null`) is left alone, so the probe can
/// still be run by hand.
func endWhenParentEnds() {
    var status = stat()
    guard fstat(STDIN_FILENO, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
    let watcher = Thread {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count > 0 || (count < 0 && errno == EINTR) { continue }
            // End-of-file or a broken pipe: nobody is left to count on what we write.
            _exit(3)
        }
    }
    watcher.start()
}

/// Starts the probe with `arguments` as a child, with a pipe on its standard input that only
/// this process holds; prints `child PID` and waits to be killed. A test kills this process and
/// checks that the child ends too.
func parentOf(_ arguments: [String]) -> Never {
    let child = Process()
    guard let probe = Bundle.main.executableURL else { fail("cannot find the probe's own executable") }
    child.executableURL = probe
    child.arguments = arguments
    let input = Pipe()
    child.standardInput = input
    do {
        try child.run()
    } catch {
        fail("cannot start the child: \(error)")
    }
    say("child \(child.processIdentifier)")
    while true {
        pause()
        withExtendedLifetime(input) {}  // its write end stays open until this process ends
    }
}
