import Foundation
import HeadlessUITesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built executables on a pseudo-terminal, their output replayed on HeadlessUI's
/// `VirtualTerminal`: keys go in as the bytes a terminal sends, and the test reads the screen the
/// app drew, its modes, and the terminal's settings after it quits.
@Suite("TodoAppDog and TodoAppCat on a pseudo-terminal, keys in, screens out", .serialized)
struct PseudoTerminalTests {
    @Test(arguments: ["TodoAppDog", "TodoAppCat"])
    func keysResizeCtrlCAndRelaunch(app name: String) async throws {
        let home = try TemporaryHome()
        let app = try AppProcess(name, home: home.url)
        let flavor = name == "TodoAppDog" ? "TodoApp-Dog" : "TodoApp-Cat"
        do {
            let terminal = try PseudoTerminal(app.executable, home: home.url, width: 80, height: 24)
            defer { terminal.close() }
            try await terminal.waitFor { $0.text.contains(flavor) && $0.text.contains("Nothing here") }
            #expect(terminal.screen.isAlternateScreen)
            for title in ["buy milk", "walk the dog"] {
                terminal.type("n")
                try await terminal.waitFor { $0.text.contains("New todo") }
                terminal.type(title + "\r")
                try await terminal.waitFor { $0.text.contains("Added \"\(title)\".") }
            }
            terminal.type(" ")
            try await terminal.waitFor { $0.text.contains("2. [x] walk the dog") }
            terminal.type("\u{1B}[A")  // Up
            terminal.type("d")
            try await terminal.waitFor { $0.text.contains("Deleted \"buy milk\". Press u to undo.") }
            terminal.type("u")
            try await terminal.waitFor { $0.text.contains("Put back \"buy milk\".") }
            for (width, height) in [(60, 20), (120, 40)] {
                terminal.resize(width: width, height: height)
                let screen = try await terminal.waitFor { screen in
                    let rows = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
                    return rows.contains { $0.contains(String(repeating: "─", count: width)) }
                        && rows.first?.contains("Todo") == true && screen.text.contains("? Help")
                }
                for row in screen.text.split(separator: "\n") { #expect(row.count <= width) }
            }
            terminal.type("\u{03}")  // Ctrl-C
            let status = try await terminal.exitStatus()
            #expect(status == 0)
            #expect(!terminal.screen.isAlternateScreen, "the alternate screen was left")
            #expect(terminal.screen.isCursorVisible, "the cursor is shown again")
            #expect(terminal.settingsAreAsBefore, "the terminal's settings are back (termios)")
        }
        let relaunched = try PseudoTerminal(app.executable, home: home.url, width: 80, height: 24)
        defer { relaunched.close() }
        let screen = try await relaunched.waitFor { $0.text.contains("walk the dog") }
        #expect(screen.text.contains("[x] walk the dog"))
        #expect(screen.text.contains("buy milk"))
        relaunched.type("q")
        #expect(try await relaunched.exitStatus() == 0)
    }
}

/// An executable on the slave side of a pseudo-terminal of its own, with a thread reading the
/// master side into a ``VirtualTerminal``.
final class PseudoTerminal: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let master: Int32
    private let slave: Int32
    private let pid: pid_t
    private let state: Mutex<(terminal: VirtualTerminal, exited: Int32?)>
    /// The slave's input, output and local flags before the app ran.
    private let initialFlags: [tcflag_t]

    /// Starts `executable` offline with its data under `home`, on a `width`×`height` terminal.
    init(_ executable: URL, home: URL, width: Int, height: Int) throws {
        // posix_openpt, unlockpt and ptsname are not in Swift's Glibc module; on Linux they are
        // these: open the multiplexer, unlock the new pair, ask its number (TIOCSPTLCK and
        // TIOCGPTN, whose _IOW/_IOR macros Swift does not import, are the same on x86-64 and arm64).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0
        else {
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = "/dev/pts/\(number)"
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            Glibc.close(master)
            throw Failure(description: "cannot open \(slavePath)")
        }
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var environment = ProcessInfo.processInfo.environment
        environment["TODOAPP_HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = nil
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["NO_COLOR"] = nil
        initialFlags = Self.flags(of: slave)
        do {
            pid = try ChildProcess.spawn([executable.path, "--offline"], environment: environment) {
                actions in
                for descriptor: Int32 in [0, 1, 2] {
                    posix_spawn_file_actions_adddup2(&actions, slave, descriptor)
                }
                posix_spawn_file_actions_addclose(&actions, master)
                posix_spawn_file_actions_addclose(&actions, slave)
            }
        } catch {
            Glibc.close(slave)
            Glibc.close(master)
            throw error
        }
        self.master = master
        self.slave = slave
        state = Mutex((VirtualTerminal(width: width, height: height), nil))
        startReading()
        startWaiting()
    }

    /// The screen as the app drew it so far.
    var screen: VirtualTerminal { state.withLock { $0.terminal } }

    /// Whether the slave's settings (raw mode off, echo on) are what they were before the app.
    var settingsAreAsBefore: Bool { Self.flags(of: slave) == initialFlags }

    private static func flags(of descriptor: Int32) -> [tcflag_t] {
        var settings = termios()
        tcgetattr(descriptor, &settings)
        return [settings.c_iflag, settings.c_oflag, settings.c_lflag]
    }

    /// Sends `text` as typed keys (bytes, as a terminal sends them).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Resizes the terminal and tells the app, as a terminal emulator does.
    func resize(width: Int, height: Int) {
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        state.withLock { $0.terminal.resize(width: width, height: height) }
        kill(pid, SIGWINCH)
    }

    /// Reads the screen until `condition` holds, for at most 10 seconds.
    @discardableResult
    func waitFor(_ condition: (VirtualTerminal) -> Bool, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> VirtualTerminal
    {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let now = screen
            if condition(now) { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(
            description: "the screen never showed what was awaited (\(sourceLocation)):\n\(screen.text)")
    }

    /// The exit status, once the app has exited (at most 10 seconds).
    func exitStatus() async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let status = state.withLock({ $0.exited }) { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "the app did not exit")
    }

    /// Kills the app if it still runs, and closes the terminal.
    func close() {
        if state.withLock({ $0.exited }) == nil { kill(pid, SIGKILL) }
        // With no slave side open any more, the reading thread's `read` ends.
        Glibc.close(slave)
        Glibc.close(master)
    }

    /// A thread of its own blocks in `read` on the master side and replays what comes.
    private func startReading() {
        let master = self.master
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                let bytes = Array(buffer[0..<count])
                state.withLock { $0.terminal.apply(bytes) }
            }
        }.start()
    }

    /// A thread of its own waits for the app to exit.
    private func startWaiting() {
        let pid = self.pid
        Thread { [self] in
            let exit = ChildProcess.wait(for: pid)
            state.withLock { $0.exited = exit }
        }.start()
    }
}
