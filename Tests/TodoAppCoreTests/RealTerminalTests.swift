import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built TodoAppDog in a real terminal: a tmux pane on a tmux server of the test's own
/// (`tmux -L NAME`), killed however the test ends. Keys go in with `send-keys`, the pane's text
/// comes back with `capture-pane`, and the pane's shell says whether the terminal's settings
/// after the app are the ones before it (`stty -g`).
@Suite("TodoAppDog in a real terminal, under tmux", .serialized)
struct RealTerminalTests {
    @Test(
        "keys add todos, the frame fits 60×20 and 120×40, Ctrl-C restores the terminal, a relaunch has it all"
    )
    func addResizeQuitRelaunch() async throws {
        let home = try TemporaryHome()
        try await AppPane.session { pane in
            try await pane.startApp(home: home.url)
            try await pane.waitFor { $0.contains("Nothing here") && $0.contains("? Help") }
            #expect(try await pane.alternateScreen)
            for title in ["buy milk", "walk the dog"] {
                try await pane.send("n")
                try await pane.waitFor { $0.contains("New todo") }
                try await pane.send(literal: title)
                try await pane.send("Enter")
                try await pane.waitFor { $0.contains("Added \"\(title)\".") }
            }
            try await pane.send("Space")
            try await pane.waitFor { $0.contains("2. [x] walk the dog") }
            for (width, height) in [(60, 20), (120, 40)] {
                try await pane.run(["resize-window", "-t", pane.target, "-x", "\(width)", "-y", "\(height)"])
                let screen = try await pane.waitFor { screen in
                    let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
                    return rows.count >= height && rows.contains { $0.hasPrefix(" [1 Todo") }
                        && rows[0].contains("Todo") && screen.contains("? Help")
                        && rows.contains { $0 == String(repeating: "─", count: width) }
                }
                let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(rows.allSatisfy { $0.count <= width }, "\(width)x\(height)")
                #expect(rows[0].contains("Todo"), "the title stays on top at \(width)x\(height)")
            }
            try await pane.send("C-c")
            let after = try await pane.waitFor { $0.contains("MODES-") }
            #expect(after.contains("status=0"))
            #expect(after.contains("MODES-RESTORED"))
            #expect(try await !pane.alternateScreen)
        }
        try await AppPane.session { pane in
            try await pane.startApp(home: home.url)
            let screen = try await pane.waitFor { $0.contains("walk the dog") }
            #expect(screen.contains("1. [ ] buy milk"))
            #expect(screen.contains("2. [x] walk the dog"))
            try await pane.send("q")
            try await pane.waitFor { $0.contains("MODES-RESTORED") }
        }
    }
}

/// A tmux server of the test's own with one 80×24 pane.
struct AppPane {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let socket = "todoapp-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    var target: String { "app" }

    /// Runs `body` with a fresh server, which is killed however `body` ends.
    static func session(_ body: (AppPane) async throws -> Void) async throws {
        let pane = AppPane()
        do {
            try await body(pane)
        } catch {
            let screen = (try? await pane.run(["capture-pane", "-p", "-t", pane.target])) ?? "(no pane)"
            await pane.cleanUp()
            throw Failure(description: "\(error)\nThe pane showed:\n\(screen)")
        }
        await pane.cleanUp()
    }

    private func cleanUp() async {
        _ = try? await run(["kill-server"])
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(directory)/tmux-\(getuid())/\(socket)")
    }

    /// Starts TodoAppDog offline with its data in `home`, from a shell that prints the exit
    /// status and whether the terminal's settings came back.
    func startApp(home: URL) async throws {
        let app = try AppProcess("TodoAppDog", home: home).executable.path
        let script = """
            before=$(stty -g); '\(app)' --offline; echo "status=$?"; \
            if [ "$before" = "$(stty -g)" ]; then echo MODES-RESTORED; else echo MODES-CHANGED; fi; exec sleep 600
            """
        var arguments = ["-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "80", "-y", "24"]
        let environment = [
            "LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": "", "TERM": "xterm-256color", "NO_COLOR": "",
            "TODOAPP_HOME": home.path, "XDG_CONFIG_HOME": "",
        ]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) {
            arguments += ["-e", "\(key)=\(value)"]
        }
        try await run(arguments + ["sh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'"])
    }

    func send(_ keys: String...) async throws {
        try await run(["send-keys", "-t", target] + keys)
    }

    func send(literal text: String) async throws {
        try await run(["send-keys", "-t", target, "-l", text])
    }

    var alternateScreen: Bool {
        get async throws {
            try await run(["display-message", "-p", "-t", target, "#{alternate_on}"]).hasPrefix("1")
        }
    }

    /// Captures the pane until `condition` holds, for at most 10 seconds; returns that screen.
    @discardableResult
    func waitFor(_ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> String
    {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let screen = try await run(["capture-pane", "-p", "-t", target])
            if condition(screen) { return screen }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "the pane never showed what was awaited (\(sourceLocation))")
    }

    /// `tmux -L socket arguments…`'s standard output. Spawned and awaited on a thread of its own
    /// (no pool thread blocks), as from a shell (``ChildProcess``), so that the pane gets
    /// SIGWINCH; the output goes through a file, since the server `new-session` starts would
    /// hold a pipe open.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmux-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let command = ["tmux", "-L", socket] + arguments
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let pid = try ChildProcess.spawn(command) { actions in
                        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                        posix_spawn_file_actions_addopen(
                            &actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                    }
                    continuation.resume(returning: ChildProcess.wait(for: pid))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        guard status == 0 || arguments.first == "kill-server" else {
            throw Failure(
                description: "tmux \(arguments.joined(separator: " ")) failed with status \(status)")
        }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
}
