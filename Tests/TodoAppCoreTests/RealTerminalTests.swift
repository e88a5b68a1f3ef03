import Foundation
import HeadlessUITesting
import Testing

/// The built TodoAppDog in a real terminal: a tmux pane on a tmux server of the test's own
/// (`tmux -L NAME`), killed however the test ends. Keys go in with `send-keys`, the pane's text
/// comes back with `capture-pane`, and the pane's shell says whether the terminal's settings
/// after the app are the ones before it (`stty -g`). Each wait is for the whole frame that the
/// test then reads (``TerminalWait``).
@Suite("TodoAppDog in a real terminal, under tmux", .serialized)
struct RealTerminalTests {
    @Test(
        "keys add todos, the frame fits 60×20 and 120×40, Ctrl-C restores the terminal, a relaunch has it all"
    )
    func addResizeQuitRelaunch() async throws {
        let home = try TemporaryHome()
        do {
            let tmux = Tmux()
            defer { tmux.close() }
            try await tmux.startApp(home: home.url)
            try await tmux.waitFor { $0.contains("Nothing here") && $0.contains("? Help") }
            #expect(try await tmux.alternateScreen)
            for title in ["buy milk", "walk the dog"] {
                try await tmux.send("n")
                try await tmux.waitFor { $0.contains("New todo") }
                try await tmux.send(literal: title)
                try await tmux.send("Enter")
                try await tmux.waitFor { $0.contains("Added \"\(title)\".") }
            }
            try await tmux.send("Space")
            try await tmux.waitFor { $0.contains("2. [x] walk the dog") }
            for (width, height) in [(60, 20), (120, 40)] {
                try await tmux.resize(columns: width, rows: height)
                let screen = try await tmux.waitFor { screen in
                    let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
                    return rows.count >= height && rows.contains { $0.hasPrefix(" [1 Todo") }
                        && rows[0].contains("Todo") && screen.contains("? Help")
                        && rows.contains { $0 == String(repeating: "─", count: width) }
                }
                let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(rows.allSatisfy { $0.count <= width }, "\(width)x\(height)")
            }
            try await tmux.send("C-c")
            let exit = try await tmux.waitForExit()
            #expect(exit.status == 0)
            #expect(exit.settingsRestored)
            #expect(try await !tmux.alternateScreen)
        }
        let tmux = Tmux()
        defer { tmux.close() }
        try await tmux.startApp(home: home.url)
        // The list and the help line below it: the whole frame.
        try await tmux.waitFor {
            $0.contains("1. [ ] buy milk") && $0.contains("2. [x] walk the dog") && $0.contains("? Help")
        }
        try await tmux.send("q")
        #expect(try await tmux.waitForExit().settingsRestored)
    }
}

extension Tmux {
    /// Starts TodoAppDog offline with its data in `home`, from a shell that reports how it ended
    /// (``waitForExit(sourceLocation:)``).
    func startApp(home: URL) async throws {
        let app = try AppProcess("TodoAppDog", home: home).executable.path
        try await startReportingExit(
            [app, "--offline"], environment: ["TODOAPP_HOME": home.path, "XDG_CONFIG_HOME": ""])
    }
}
