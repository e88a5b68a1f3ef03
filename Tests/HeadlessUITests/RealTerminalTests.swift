import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The runtime in a real terminal: `headlessui-demo` (built next to this test bundle) runs in a
/// tmux pane on a tmux server of its own, which is killed whatever happens. Each test sends keys,
/// resizes, signals, and reads the pane's text and whether the alternate screen is on; the pane's
/// shell compares the terminal's settings before and after the app (`stty -g`).
@Suite("A real terminal: headlessui-demo under tmux", .serialized)
struct RealTerminalTests {
    @Test func keysResizeAndCtrlCLeaveTheTerminalAsItWas() async throws {
        try await Tmux.session { tmux in
            try await tmux.startDemoInShell()
            try await tmux.waitFor { $0.contains("Groceries") }
            #expect(try await tmux.alternateScreen)
            try await tmux.send("Down", "Enter")
            try await tmux.waitFor { $0.contains("Oat milk is item 1 of 8") }
            try await tmux.send("Escape")
            try await tmux.waitFor { $0.contains("2. Eggs") }
            try await tmux.run(["resize-window", "-t", tmux.target, "-x", "40", "-y", "12"])
            let small = try await tmux.waitFor { screen in
                let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
                return rows.count >= 12 && rows.contains { $0 == String(repeating: "─", count: 40) }
                    && screen.contains("[1 Groceries]")
            }
            #expect(small.split(separator: "\n").allSatisfy { $0.count <= 40 })
            try await tmux.run(["resize-window", "-t", tmux.target, "-x", "100", "-y", "30"])
            try await tmux.waitFor { $0.contains(String(repeating: "─", count: 100)) }
            try await tmux.send("C-c")
            let after = try await tmux.waitFor { $0.contains("MODES-") }
            #expect(after.contains("status=0"))
            #expect(after.contains("MODES-RESTORED"))
            #expect(try await !tmux.alternateScreen)
        }
    }

    @Test(arguments: [("TERM", SIGTERM), ("HUP", SIGHUP), ("INT", SIGINT)])
    func aSignalEndsTheAppAndTheTerminalIsRestored(name: String, number: Int32) async throws {
        try await Tmux.session { tmux in
            try await tmux.startDemoInShell()
            try await tmux.waitFor { $0.contains("Groceries") }
            let pid = try tmux.demoPID()
            #expect(kill(pid, number) == 0)
            let after = try await tmux.waitFor { $0.contains("MODES-") }
            #expect(after.contains("status=\(128 + number)"), "SIG\(name)")
            #expect(after.contains("MODES-RESTORED"), "SIG\(name)")
            #expect(try await !tmux.alternateScreen, "SIG\(name)")
        }
    }

    @Test func ctrlZLeavesTheScreenAndFgRedrawsIt() async throws {
        try await Tmux.session { tmux in
            // An interactive shell with job control, as a user has.
            try await tmux.start(command: "sh -i", environment: ["PS1": "$ "])
            try await tmux.send(literal: "\(try Tmux.demoPath()) --pid-file \(tmux.pidFile)")
            try await tmux.send("Enter")
            try await tmux.waitFor { $0.contains("Groceries") }
            try await tmux.send("C-z")
            try await tmux.waitFor { $0.contains("Stopped") }
            #expect(try await !tmux.alternateScreen)
            try await tmux.send(
                literal: "stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo")
            try await tmux.send("Enter")
            try await tmux.waitFor { $0.contains("icanon echo") }
            try await tmux.send(literal: "fg")
            try await tmux.send("Enter")
            let resumed = try await tmux.waitFor { $0.contains("1. Oat milk") && !$0.contains("Stopped") }
            #expect(resumed.contains("Groceries"))
            #expect(try await tmux.alternateScreen)
            try await tmux.send("C-c")
            try await tmux.waitFor { $0.contains("ended (quit)") }
        }
    }

    @Test func aPictureShowsAsColouredHalfBlocksAndNoGraphicsCommandReachesTmux() async throws {
        let picture = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "Images/sunset-64x48.jpg").path
        try await Tmux.session { tmux in
            try await tmux.startDemoInShell(arguments: ["--image", picture])
            try await tmux.waitFor { $0.contains("3 Picture") }
            try await tmux.send("M-3")
            // The frame reaches tmux in more than one read when the machine is busy: wait for its
            // last rows (the caption and the tab bar), not for the first half-block.
            try await tmux.waitFor { screen in
                screen.contains("▀") && screen.contains("sunset-64x48.jpg") && screen.contains("[3 Picture]")
            }
            let styled = try await tmux.run(["capture-pane", "-p", "-e", "-t", tmux.target])
            #expect(styled.contains("38;5;") && styled.contains("48;5;"))
            // tmux takes an APC string for the pane's title and shows it in its status line:
            // inside tmux the demo must not write kitty's graphics query, nor any picture.
            #expect(!styled.contains("Gi=") && !styled.contains("_G"))
            let title = try await tmux.run(["display-message", "-p", "-t", tmux.target, "#{pane_title}"])
            #expect(!title.contains("Gi="), "the pane's title is \(title)")
            try await tmux.send("C-c")
            let after = try await tmux.waitFor { $0.contains("MODES-RESTORED") }
            // The fallback says why: the app can tell its user that tmux is the reason.
            #expect(after.contains("unsupported(\"not asked: inside tmux"), "\(after)")
        }
    }

    @Test func aLiveResizeRedrawsThePictureAtTheNewSizeWithNoStaleCells() async throws {
        let picture = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "Images/sunset-64x48.jpg").path
        /// The pane with its colours, once the picture and the tab bar at the bottom are drawn.
        func pictureScreen(_ tmux: Tmux, columns: Int) async throws -> String {
            try await tmux.waitFor { screen in
                let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
                return screen.contains("▀") && screen.contains("sunset-64x48.jpg")
                    && rows.contains { $0 == String(repeating: "─", count: columns) }
            }
            return try await tmux.run(["capture-pane", "-p", "-e", "-t", tmux.target])
        }
        // What the demo draws when it starts at each size: the reference for the resized pane.
        var fresh: [Int: String] = [:]
        for (columns, rows) in [(50, 14), (100, 30)] {
            try await Tmux.session { tmux in
                try await tmux.startDemoInShell(
                    arguments: ["--image", picture], columns: columns, rows: rows)
                try await tmux.waitFor { $0.contains("3 Picture") }
                try await tmux.send("M-3")
                fresh[columns] = try await pictureScreen(tmux, columns: columns)
                try await tmux.send("C-c")
                try await tmux.waitFor { $0.contains("MODES-RESTORED") }
            }
        }
        try await Tmux.session { tmux in
            try await tmux.startDemoInShell(arguments: ["--image", picture])
            try await tmux.waitFor { $0.contains("3 Picture") }
            try await tmux.send("M-3")
            let large = try await pictureScreen(tmux, columns: 80)
            for (columns, rows) in [(50, 14), (100, 30)] {
                try await tmux.run(["resize-window", "-t", tmux.target, "-x", "\(columns)", "-y", "\(rows)"])
                // Every cell, colours included, is what a fresh start at this size draws: the
                // picture is scaled again and nothing of the larger one is left behind.
                let expected = Tmux.cells(ofStyledCapture: fresh[columns] ?? "", columns: columns)
                let styled = try await tmux.styledCapture {
                    Tmux.cells(ofStyledCapture: $0, columns: columns) == expected
                }
                let plain = try await tmux.capture()
                #expect(
                    Tmux.cells(ofStyledCapture: styled, columns: columns) == expected,
                    "\(columns)x\(rows); the pane showed:\n\(plain)")
            }
            let blocks = { (screen: String) in screen.split(separator: "\n").filter { $0.contains("▀") }.count
            }
            #expect(blocks(fresh[50] ?? "") < blocks(large) && blocks(large) < blocks(fresh[100] ?? ""))
            try await tmux.send("C-c")
            try await tmux.waitFor { $0.contains("MODES-RESTORED") }
        }
    }

    @Test func aCLocaleAndNoColorGetASCIIAndNoColours() async throws {
        try await Tmux.session { tmux in
            try await tmux.startDemoInShell(environment: ["LANG": "C", "LC_ALL": "C", "NO_COLOR": "1"])
            let screen = try await tmux.waitFor { $0.contains("Groceries") }
            #expect(screen.contains(String(repeating: "-", count: 80)))
            #expect(!screen.contains("─"))
            let styled = try await tmux.run(["capture-pane", "-p", "-e", "-t", tmux.target])
            #expect(!styled.contains("[33m") && !styled.contains("38;5"))
            try await tmux.send("C-c")
            try await tmux.waitFor { $0.contains("MODES-RESTORED") }
        }
    }
}

/// A tmux server of the test's own (`tmux -L NAME`) with one 80×24 pane.
struct Tmux {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let socket = "ribcage-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent(
        "headlessui-demo-\(UUID().uuidString).pid"
    ).path
    var target: String { "demo" }

    /// Runs `body` with a fresh server, and kills the server and removes the pid file however
    /// `body` ends.
    static func session(_ body: (Tmux) async throws -> Void) async throws {
        let tmux = Tmux()
        do {
            try await body(tmux)
        } catch {
            let screen = (try? await tmux.capture()) ?? "(no pane)"
            await tmux.cleanUp()
            throw Failure(description: "\(error)\nThe pane showed:\n\(screen)")
        }
        await tmux.cleanUp()
    }

    private func cleanUp() async {
        _ = try? await run(["kill-server"])
        try? FileManager.default.removeItem(atPath: pidFile)
        // A killed server can leave its socket file behind.
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(directory)/tmux-\(getuid())/\(socket)")
    }

    /// The demo executable, next to this test bundle.
    static func demoPath() throws -> String {
        let testBinary = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let demo = testBinary.deletingLastPathComponent().appendingPathComponent("headlessui-demo").path
        guard FileManager.default.isExecutableFile(atPath: demo) else {
            throw Failure(description: "headlessui-demo is not built at \(demo); run `swift build` first")
        }
        return demo
    }

    /// Starts the pane running `command` in a window of `columns` by `rows` (80×24).
    func start(
        command: String, environment: [String: String] = [:], columns: Int = 80, rows: Int = 24
    ) async throws {
        var arguments = [
            "-f", "/dev/null", "new-session", "-d", "-s", target, "-x", "\(columns)", "-y", "\(rows)",
        ]
        // What the test runner's own environment may say (NO_COLOR, LC_ALL) must not decide:
        // empty values count as unset.
        let defaults = [
            "LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": "", "TERM": "xterm-256color", "NO_COLOR": "",
        ]
        let settings = defaults.merging(environment) { $1 }
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            arguments += ["-e", "\(key)=\(value)"]
        }
        _ = try await run(arguments + [command])
    }

    /// Starts the demo from a non-interactive shell that prints its exit status and whether the
    /// terminal's settings are what they were before it ran.
    func startDemoInShell(
        arguments: [String] = [], environment: [String: String] = [:], columns: Int = 80, rows: Int = 24
    ) async throws {
        let demo = try Self.demoPath()
        let extra = arguments.map { " '\($0)'" }.joined()
        let script = """
            before=$(stty -g); '\(demo)' --pid-file '\(pidFile)'\(extra); echo "status=$?"; \
            if [ "$before" = "$(stty -g)" ]; then echo MODES-RESTORED; else echo MODES-CHANGED; fi; exec sleep 600
            """
        try await start(
            command: "sh -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))'",
            environment: environment, columns: columns, rows: rows)
    }

    func demoPID() throws -> Int32 {
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "no pid in \(pidFile)")
        }
        return pid
    }

    func send(_ keys: String...) async throws {
        _ = try await run(["send-keys", "-t", target] + keys)
    }

    func send(literal text: String) async throws {
        _ = try await run(["send-keys", "-t", target, "-l", text])
    }

    func capture() async throws -> String {
        try await run(["capture-pane", "-p", "-t", target])
    }

    var alternateScreen: Bool {
        get async throws {
            try await run(["display-message", "-p", "-t", target, "#{alternate_on}"]).hasPrefix("1")
        }
    }

    /// Captures the pane with its colours until `condition` holds, for at most 10 seconds;
    /// returns the last capture, whether it holds or not.
    func styledCapture(until condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        var screen = ""
        while ContinuousClock.now < deadline {
            screen = try await run(["capture-pane", "-p", "-e", "-t", target])
            if condition(screen) { break }
            try await Task.sleep(for: .milliseconds(40))
        }
        return screen
    }

    /// What each cell of a `capture-pane -p -e` capture shows: its character and the SGR state
    /// it was printed in, each row padded to `columns` with blanks. Two captures of the same
    /// cells are equal wherever tmux put its escape sequences (it resets the colours before
    /// blanks an app wrote, not before cells nobody wrote, and carries them across lines).
    static func cells(ofStyledCapture capture: String, columns: Int) -> [[String]] {
        var foreground = ""
        var background = ""
        var attributes: Set<Int> = []
        func apply(_ codes: [Int]) {
            var index = 0
            while index < codes.count {
                let code = codes[index]
                switch code {
                case 0:
                    foreground = ""
                    background = ""
                    attributes = []
                case 1...9: attributes.insert(code)
                case 22:
                    attributes.remove(1)
                    attributes.remove(2)
                case 23...29: attributes.remove(code - 20)
                case 30...37, 90...97: foreground = "\(code)"
                case 39: foreground = ""
                case 40...47, 100...107: background = "\(code)"
                case 49: background = ""
                case 38, 48:
                    let rest = codes.dropFirst(index + 1)
                    let count = rest.first == 5 ? 2 : 4
                    let value = rest.prefix(count).map(String.init).joined(separator: ";")
                    if code == 38 { foreground = value } else { background = value }
                    index += count
                default: break
                }
                index += 1
            }
        }
        var rows: [[String]] = []
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            let characters = Array(line)
            var row: [String] = []
            var index = 0
            while index < characters.count {
                guard characters[index] == "\u{1B}" else {
                    row.append("\(characters[index])|\(foreground)|\(background)|\(attributes.sorted())")
                    index += 1
                    continue
                }
                var end = index + 2
                while end < characters.count, !characters[end].isLetter { end += 1 }
                if end < characters.count, characters[end] == "m" {
                    apply(
                        String(characters[min(index + 2, end)..<end])
                            .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 })
                }
                index = end + 1
            }
            while row.count < columns { row.append(" |||[]") }
            rows.append(row)
        }
        return rows
    }

    /// Captures the pane until `condition` holds, for at most 10 seconds; returns that screen.
    @discardableResult
    func waitFor(_ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
        -> String
    {
        let deadline = ContinuousClock.now + .seconds(10)
        var screen = ""
        while ContinuousClock.now < deadline {
            screen = try await capture()
            if condition(screen) { return screen }
            try await Task.sleep(for: .milliseconds(40))
        }
        throw Failure(description: "the pane never showed what was awaited (\(sourceLocation))")
    }

    /// Runs `tmux -L socket arguments…` and returns its standard output. The child is spawned
    /// and waited for on a thread of its own, so no thread of the cooperative pool blocks. The
    /// output goes through a file, not a pipe: the server that `new-session` starts inherits
    /// the descriptor and would hold a pipe open for its lifetime.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmux-\(UUID().uuidString).out"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let command = ["tmux", "-L", socket] + arguments
        let status = try await Self.spawnAndWait(command, output: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 || arguments.first == "kill-server" else {
            throw Failure(
                description: "tmux \(arguments.joined(separator: " ")) failed with status \(status)")
        }
        return text
    }

    private static func spawnAndWait(_ command: [String], output: String) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
                defer { for argument in argv { free(argument) } }
                var attributes = posix_spawnattr_t()
                posix_spawnattr_init(&attributes)
                defer { posix_spawnattr_destroy(&attributes) }
                startAsFromAShell(&attributes)
                var pid: pid_t = 0
                let spawned = posix_spawnp(&pid, command[0], &actions, &attributes, &argv, environ)
                guard spawned == 0 else {
                    continuation.resume(
                        throwing: Failure(description: "tmux cannot start (is it installed?): \(spawned)"))
                    return
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                // WIFEXITED and WEXITSTATUS, which Swift does not import.
                continuation.resume(
                    returning: status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
            }
            thread.start()
        }
    }
}
