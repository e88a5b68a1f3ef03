// headlessui-demo: a small full-screen app on HeadlessUI's terminal runtime, for trying the
// runtime by hand and for its real-terminal test under tmux.
//
//     swift run headlessui-demo [--pid-file PATH] [--image PATH] [--use-up-descriptors]
//                               [--exit-on-usr1] [--graphics-timeout MS]
//
// `--graphics-timeout` sets how long the demo waits for a terminal that answers nothing to the
// graphics query (250 ms by default): PseudoTerminalTests gives a terminal that answers a long
// one, so that a busy machine cannot time the query out before the answer is read.
// `--exit-on-usr1` makes SIGUSR1 call `exit(3)` while the session is entered, as a program
// that ends without returning from `run()`: TerminalApplicationRunTests checks that the
// session is left on the way out.
// `--use-up-descriptors` opens files until the process may open no more (its limit lowered to
// 64 first), as a program that leaks them would, before the app runs: SignalEventsTests checks
// that the app then says it cannot catch signals and leaves the terminal as it was.
//
// Keys: Up/Down, Enter, Esc, Tab (completes in the form), Shift-Tab, Alt-1/2/3, d, ?, Ctrl-L,
// Ctrl-Z, Ctrl-C; the mouse clicks rows, tabs and the button, and the wheel scrolls.

import Foundation
import HeadlessUI
import Layout
import TerminalRuntime

#if canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let imagePath = arguments.firstIndex(of: "--image").flatMap {
    $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
}
if let index = arguments.firstIndex(of: "--pid-file"), index + 1 < arguments.count {
    do {
        try "\(getpid())\n".write(toFile: arguments[index + 1], atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("headlessui-demo: cannot write the pid file: \(error)\n".utf8))
        exit(73)
    }
}

/// The `--graphics-timeout` given, in milliseconds, if any.
let graphicsTimeout: Duration? = arguments.firstIndex(of: "--graphics-timeout").map { index in
    guard index + 1 < arguments.count, let milliseconds = Int(arguments[index + 1]), milliseconds >= 0 else {
        FileHandle.standardError.write(
            Data("headlessui-demo: --graphics-timeout takes a number of milliseconds\n".utf8))
        exit(64)
    }
    return .milliseconds(milliseconds)
}

if arguments.contains("--use-up-descriptors") {
    var limit = rlimit()
    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = min(limit.rlim_cur, 64)
    setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    while dup(STDERR_FILENO) >= 0 {}
}

@MainActor
func runDemo() async -> Int32 {
    let window = DemoApp.makeWindow(
        size: Terminal.size() ?? Size(width: 80, height: 24), imagePath: imagePath)
    let application = TerminalApplication(window: window)
    if let graphicsTimeout { application.kittyGraphicsTimeout = graphicsTimeout }
    do {
        if arguments.contains("--exit-on-usr1") {
            let usr1 = try SignalEvents.stream([SIGUSR1])
            Task { @MainActor in
                for await _ in usr1 { exit(3) }
            }
        }
        let reason = try await application.run()
        print("headlessui-demo: ended (\(reason))")
        if imagePath != nil, let answer = application.kittyGraphicsAnswer {
            print("headlessui-demo: pictures: \(answer)")
        }
        return reason.exitStatus
    } catch {
        FileHandle.standardError.write(Data("headlessui-demo: \(error)\n".utf8))
        return 1
    }
}

exit(await runDemo())
