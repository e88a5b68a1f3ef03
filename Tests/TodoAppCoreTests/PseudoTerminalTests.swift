import Data
import Domain
import Foundation
import HeadlessUITesting
import Testing

/// The built executables on a pseudo-terminal, their output replayed on HeadlessUI's
/// `VirtualTerminal`: keys go in as the bytes a terminal sends, and the test reads the screen the
/// app drew, its modes, and the terminal's settings after it quits. Each wait is for the whole
/// frame that the test then reads (``TerminalWait``).
@Suite("TodoAppDog and TodoAppCat on a pseudo-terminal, keys in, screens out", .serialized)
struct PseudoTerminalTests {
    /// Starts `app` offline with its data in `home` on an 80×24 terminal.
    private func start(_ app: AppProcess, home: URL) throws -> PseudoTerminalSession {
        var environment = ProcessInfo.processInfo.environment
        environment["TODOAPP_HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = nil
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["NO_COLOR"] = nil
        return try PseudoTerminalSession([app.executable.path, "--offline"], environment: environment)
    }

    @Test(arguments: ["TodoAppDog", "TodoAppCat"])
    func keysResizeCtrlCAndRelaunch(app name: String) async throws {
        let home = try TemporaryHome()
        let app = try AppProcess(name, home: home.url)
        let flavor = name == "TodoAppDog" ? "TodoApp-Dog" : "TodoApp-Cat"
        do {
            let session = try start(app, home: home.url)
            defer { session.close() }
            try await session.waitFor {
                $0.text.contains(flavor) && $0.text.contains("Nothing here") && $0.text.contains("? Help")
            }
            #expect(session.terminal.isAlternateScreen)
            for title in ["buy milk", "walk the dog"] {
                session.send("n")
                try await session.waitFor { $0.text.contains("New todo") }
                session.send(title + "\r")
                try await session.waitFor { $0.text.contains("Added \"\(title)\".") }
            }
            session.send(" ")
            try await session.waitFor { $0.text.contains("2. [x] walk the dog") }
            session.send("\u{1B}[A")  // Up
            session.send("d")
            try await session.waitFor { $0.text.contains("Deleted \"buy milk\". Press u to undo.") }
            session.send("u")
            try await session.waitFor { $0.text.contains("Put back \"buy milk\".") }
            for (width, height) in [(60, 20), (120, 40)] {
                session.resize(columns: UInt16(width), rows: UInt16(height))
                let screen = try await session.waitFor { screen in
                    let rows = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
                    return rows.contains { $0.contains(String(repeating: "─", count: width)) }
                        && rows.first?.contains("Todo") == true && screen.text.contains("? Help")
                }
                for row in screen.text.split(separator: "\n") { #expect(row.count <= width) }
            }
            session.send("\u{03}")  // Ctrl-C
            #expect(try await session.exitStatus() == 0)
            // Read once everything the app wrote has been replayed.
            #expect(!session.terminal.isAlternateScreen, "the alternate screen was left")
            #expect(session.terminal.isCursorVisible, "the cursor is shown again")
            #expect(session.settingsAtExitAreAsBefore, "the terminal's settings are back (termios)")
        }
        let relaunched = try start(app, home: home.url)
        defer { relaunched.close() }
        try await relaunched.waitFor {
            $0.text.contains("[x] walk the dog") && $0.text.contains("buy milk")
                && $0.text.contains("? Help")
        }
        relaunched.send("q")
        #expect(try await relaunched.exitStatus() == 0)
    }

    /// The first frame the terminal shows is the app as the user left it: the list read from
    /// disk, under the filter kept last time. The reads happen off the main actor while the
    /// terminal answers the graphics query; the frame waits for both.
    @Test func theFirstFrameShowsTheStoredTodosUnderTheKeptFilter() async throws {
        let home = try TemporaryHome()
        let app = try AppProcess("TodoAppDog", home: home.url)
        let saved = try await app.run(
            ["new", "save walk the dog", "new", "save buy milk", "done 1", "filter done", "quit"],
            arguments: ["--offline"])
        #expect(saved.status.isSuccess, "\(saved.errors)")
        let session = try start(app, home: home.url)
        defer { session.close() }
        // The first frame is awaited itself: the screen can show its status line a read before
        // the frame's synchronized update closes.
        let first = try #require(
            await TerminalWait.poll(every: .milliseconds(20)) { session.firstFrame },
            "\(session.terminal.text)")
        #expect(first.text.contains("1. [x] walk the dog"), "\(first.text)")
        #expect(!first.text.contains("buy milk"), "the kept filter hides it: \(first.text)")
        #expect(!first.text.contains("Reading the todos"), "\(first.text)")
        session.send("q")
        #expect(try await session.exitStatus() == 0)
    }

    /// `q` right after a change whose save waits for another process's lock: the app gives the
    /// terminal back, says it is saving, and ends only once the change is on disk.
    @Test func quittingWhileASaveWaitsForTheLockKeepsTheChange() async throws {
        let home = try TemporaryHome()
        let app = try AppProcess("TodoAppDog", home: home.url)
        let folder = home.url.appendingPathComponent("data/TodoApp-Dog", isDirectory: true)
        let session = try start(app, home: home.url)
        defer { session.close() }
        try await session.waitFor { $0.text.contains("Nothing here") && $0.text.contains("? Help") }
        try await whileAnotherProcessHoldsTheLock(of: folder) { try await Self.saveAndQuit(session) }
        // The other process was killed, and its lock went with it.
        #expect(try await session.exitStatus() == 0)
        #expect(try await StoredTodoRepository(folder: folder).loadTodos().map(\.title) == ["buy milk"])
        // The save's result changed the list after the terminal was given back: no frame shows it.
        #expect(
            !session.terminal.text.contains("buy milk"),
            "the shell's screen: \(session.terminal.text.debugDescription)")
    }

    /// The first frame waits for the launch's reads for at most 250 ms: with another process
    /// holding the data folder's lock, it comes anyway, saying the todos are being read, and the
    /// list follows once the lock is let go. (The race between the reads and the time limit.)
    @Test func launchWhileAnotherProcessHoldsTheLockDrawsAtOnce() async throws {
        let home = try TemporaryHome()
        let app = try AppProcess("TodoAppDog", home: home.url)
        let folder = home.url.appendingPathComponent("data/TodoApp-Dog", isDirectory: true)
        try await StoredTodoRepository(folder: folder).replace(with: [Todo(title: "buy milk")])
        let homeFolder = home.url
        let session = try await whileAnotherProcessHoldsTheLock(of: folder) {
            let session = try start(app, home: homeFolder)
            let first = try #require(
                await TerminalWait.poll(every: .milliseconds(20)) { session.firstFrame },
                "\(session.terminal.text)")
            #expect(first.text.contains("Reading the todos…"), "\(first.text)")
            #expect(!first.text.contains("buy milk"), "the todos were read with the lock held")
            return session
        }
        defer { session.close() }
        // The other process was killed, and its lock went with it.
        try await session.waitFor { $0.text.contains("1. [ ] buy milk") && $0.text.contains("? Help") }
        session.send("q")
        #expect(try await session.exitStatus() == 0)
    }

    /// Another process keeps the data folder's lock past the app's wait at launch (5 s): the
    /// status line says the folder is in use and nothing was changed (it said the data was
    /// "unreadable and set aside"), the list says what to do instead of "Nothing here", and the
    /// files are as they were. A todo added once the lock is free is kept with the stored ones.
    @Test func launchWhileAnotherProcessKeepsTheLockPastTheWaitSaysTheFolderIsInUse() async throws {
        let home = try TemporaryHome()
        let app = try AppProcess("TodoAppDog", home: home.url)
        let folder = home.url.appendingPathComponent("data/TodoApp-Dog", isDirectory: true)
        try await StoredTodoRepository(folder: folder).replace(with: [Todo(title: "buy milk")])
        let stored = try Self.contents(of: folder)
        let homeFolder = home.url
        let session = try await whileAnotherProcessHoldsTheLock(of: folder) {
            let session = try start(app, home: homeFolder)
            try await session.waitFor {
                $0.text.contains("Data folder in use by another process: todos not read, nothing changed.")
                    && $0.text.contains("? Help")
            }
            return session
        }
        defer { session.close() }
        let screen = session.terminal.text
        // The rows as one line of words, so that the notice reads whole however it wraps.
        let words = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        #expect(words.contains("The todos were not read: another process kept"), "\(screen)")
        #expect(words.contains("Nothing was changed, and the stored todos are intact."), "\(screen)")
        #expect(!screen.contains("Nothing here"), "\(screen)")
        #expect(!screen.contains("set aside") && !screen.contains("unreadable"), "\(screen)")
        #expect(try Self.contents(of: folder) == stored, "nothing was set aside or written")

        session.send("n")
        try await session.waitFor { $0.text.contains("New todo") }
        session.send("eggs\r")
        try await session.waitFor {
            $0.text.contains("1. [ ] eggs") && $0.text.contains("stored todos not read")
        }
        session.send("q")
        #expect(try await session.exitStatus() == 0)
        #expect(
            try await StoredTodoRepository(folder: folder).loadTodos().map(\.title) == ["buy milk", "eggs"])
    }

    /// Every file in `folder`, by name, with its bytes.
    private static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// Adds a todo and quits at once, while the save waits for the lock: the app has left the
    /// alternate screen, says it is saving, and still runs.
    private static func saveAndQuit(_ session: PseudoTerminalSession) async throws {
        session.send("n")
        try await session.waitFor { $0.text.contains("New todo") }
        session.send("buy milk\r")
        try await session.waitFor { !$0.text.contains("New todo") }
        session.send("q")
        try await session.waitFor { $0.text.contains("saving the last changes…") }
        #expect(!session.terminal.isAlternateScreen, "the terminal is the shell's while it waits")
        #expect(!session.hasExited, "the app ended with its last change unsaved")
    }
}
