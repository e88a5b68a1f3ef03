import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A tmux server of the test's own (`tmux -L NAME`, no configuration file) with one pane, for
/// tests that run a program in a real terminal: keys go in with `send-keys`, the pane's text
/// (with or without its colours) comes back with `capture-pane`.
///
/// ```swift
/// let tmux = Tmux()
/// defer { tmux.close() }
/// try await tmux.startReportingExit([app, "--offline"])
/// try await tmux.waitFor { $0.contains("Nothing here") && $0.contains("? Help") }
/// try await tmux.send("C-c")
/// let exit = try await tmux.waitForExit()
/// #expect(exit.status == 0 && exit.settingsRestored)
/// ```
package final class Tmux: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// How a program started by ``startReportingExit(_:environment:columns:rows:)`` ended, as
    /// the pane's shell reported it.
    package struct Exit: Sendable {
        /// The program's exit status, or 128 plus the signal that ended it.
        package var status: Int32
        /// Whether the terminal's settings (`stty -g`) after the program are those before it.
        package var settingsRestored: Bool
        /// The pane once the shell had reported.
        package var screen: String
    }

    /// The server's socket name.
    package let socket = "ribcage-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    /// A path for the program's pid file, if it writes one; removed with the server.
    package var pidFile: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).pid").path
    }
    /// The pane, for tmux commands that name one.
    package var target: String { "test" }

    /// The server's pid, once started.
    private let server = Mutex<pid_t?>(nil)

    /// A server of its own, not started yet (``start(command:environment:columns:rows:)``
    /// starts it). ``close()`` it when the test ends (`defer`).
    package init() {}

    /// Ends the server (SIGTERM: tmux exits and hangs up its pane's programs) and removes the
    /// pid file and the socket file it leaves. It waits for nothing, so `defer` can call it from
    /// async code, and the server is told before the test process can exit.
    package func close() {
        if let pid = server.withLock({ $0 }) { kill(pid, SIGTERM) }
        unlink(pidFile)
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socket)")
    }

    /// Standard input and error on /dev/null.
    private static func quiet(_ actions: inout posix_spawn_file_actions_t) {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }

    /// Starts the server with the pane running `command` (a shell command line) in a window of
    /// `columns` by `rows`, with `environment` over a UTF-8 locale, `TERM=xterm-256color` and
    /// colours on: what the test runner's own environment says (`NO_COLOR`, `LC_ALL`) does not
    /// decide, since empty values count as unset.
    package func start(
        command: String, environment: [String: String] = [:], columns: Int = 80, rows: Int = 24
    ) async throws {
        var arguments = [
            "-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "\(columns)", "-y", "\(rows)",
        ]
        let defaults = [
            "LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": "", "TERM": "xterm-256color", "NO_COLOR": "",
        ]
        for (key, value) in defaults.merging(environment, uniquingKeysWith: { $1 }).sorted(by: {
            $0.key < $1.key
        }) {
            arguments += ["-e", "\(key)=\(value)"]
        }
        try await run(arguments + [command])
        let pid = try await run(["display-message", "-p", "#{pid}"])
        guard let pid = pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "tmux did not say its server's pid: \(pid)")
        }
        server.withLock { $0 = pid }
    }

    /// Starts `arguments` (a path, then its arguments) as
    /// ``start(command:environment:columns:rows:)`` does, from a non-interactive shell that then
    /// prints its exit status and whether the terminal's settings are those before it
    /// (``waitForExit(sourceLocation:)`` reads them).
    package func startReportingExit(
        _ arguments: [String], environment: [String: String] = [:], columns: Int = 80, rows: Int = 24
    ) async throws {
        let commandLine = arguments.map(Self.quoted).joined(separator: " ")
        let script = """
            before=$(stty -g); \(commandLine); echo "status=$?"; \
            if [ "$before" = "$(stty -g)" ]; then echo MODES-RESTORED; else echo MODES-CHANGED; fi; exec sleep 600
            """
        try await start(
            command: "sh -c \(Self.quoted(script))", environment: environment, columns: columns, rows: rows)
    }

    /// `text` quoted for a POSIX shell.
    package static func quoted(_ text: String) -> String {
        "'\(text.replacingOccurrences(of: "'", with: "'\\''"))'"
    }

    /// Sends tmux key names (`Enter`, `C-c`, `M-3`), one key each.
    package func send(_ keys: String...) async throws {
        try await run(["send-keys", "-t", target] + keys)
    }

    /// Types `text` as it is.
    package func send(literal text: String) async throws {
        try await run(["send-keys", "-t", target, "-l", text])
    }

    /// The pane's text now.
    package func capture() async throws -> String {
        try await run(["capture-pane", "-p", "-t", target])
    }

    /// The pane's text now, with its colours and attributes as SGR sequences (see
    /// ``cells(ofStyledCapture:columns:)``).
    package func styledCapture() async throws -> String {
        try await run(["capture-pane", "-p", "-e", "-t", target])
    }

    /// The pane's title, which a program (or an escape sequence tmux takes for one) sets.
    package func title() async throws -> String {
        try await run(["display-message", "-p", "-t", target, "#{pane_title}"])
    }

    /// Whether the pane is on its alternate screen.
    package var alternateScreen: Bool {
        get async throws {
            try await run(["display-message", "-p", "-t", target, "#{alternate_on}"]).hasPrefix("1")
        }
    }

    /// Resizes the window, as a user resizing their terminal does: the program gets SIGWINCH.
    package func resize(columns: Int, rows: Int) async throws {
        try await run(["resize-window", "-t", target, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Captures the pane until `condition` holds, for at most ``TerminalWait/timeout``.
    ///
    /// - Returns: The capture that satisfied it.
    @discardableResult
    package func waitFor(
        _ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        try await waitFor(capturing: capture, condition, sourceLocation: sourceLocation)
    }

    /// Captures the pane with its colours until `condition` holds, for at most
    /// ``TerminalWait/timeout``.
    ///
    /// - Returns: The styled capture that satisfied it.
    @discardableResult
    package func waitForStyled(
        _ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        try await waitFor(capturing: styledCapture, condition, sourceLocation: sourceLocation)
    }

    private func waitFor(
        capturing capture: () async throws -> String, _ condition: (String) -> Bool,
        sourceLocation: SourceLocation
    ) async throws -> String {
        var last = ""
        let shown = try await TerminalWait.poll(every: .milliseconds(40)) { () -> String? in
            last = try await capture()
            return condition(last) ? last : nil
        }
        guard let shown else {
            throw Failure(
                description: "the pane never showed what was awaited (\(sourceLocation)); it showed:\n\(last)"
            )
        }
        return shown
    }

    /// Waits until the shell of ``startReportingExit(_:environment:columns:rows:)`` has reported
    /// how the program ended.
    package func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Exit {
        let screen = try await waitFor(
            { $0.contains("MODES-RESTORED") || $0.contains("MODES-CHANGED") }, sourceLocation: sourceLocation)
        let statusLine = screen.split(separator: "\n").last { $0.hasPrefix("status=") }
        guard let statusLine, let status = Int32(statusLine.dropFirst("status=".count)) else {
            throw Failure(description: "no exit status in the pane (\(sourceLocation))")
        }
        return Exit(status: status, settingsRestored: screen.contains("MODES-RESTORED"), screen: screen)
    }

    /// Runs `tmux -L socket arguments…` and returns its standard output.
    ///
    /// The output goes through a file, not a pipe: the server that `new-session` starts
    /// inherits the descriptor and would hold a pipe open for its lifetime. tmux is started as
    /// from a shell (``ChildProcess``), so that the server, and the pane's program, get SIGWINCH.
    @discardableResult
    package func run(_ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmux-\(UUID().uuidString).out"
        ).path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let status = try await ChildProcess.run(["tmux", "-L", socket] + arguments) { actions in
            Self.quiet(&actions)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        guard status == 0 else {
            throw Failure(
                description: "tmux \(arguments.joined(separator: " ")) failed with status \(status)")
        }
        do {
            return try String(contentsOfFile: output, encoding: .utf8)
        } catch {
            throw Failure(description: "tmux \(arguments.first ?? "")'s output is unreadable: \(error)")
        }
    }
}
