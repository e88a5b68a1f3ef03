import Foundation
import Subprocess
import Testing

/// What the built app reads before its first frame, now that the todos are read off the main
/// actor by the list's first action.
@Suite("Launch: the todos are read before a script's first frame")
struct LaunchTests {
    @Test("a damaged journal line: the first frame lists every readable todo and says what was set aside")
    func damagedJournalAtLaunch() async throws {
        let home = try TemporaryHome()
        let app = try AppProcess("TodoAppDog", home: home.url)
        let saved = try await app.run(
            ["new", "save kept", "new", "save also kept", "quit"], arguments: ["--offline"])
        #expect(saved.status.isSuccess, "\(saved.errors)")
        let journal = home.url.appendingPathComponent("data/TodoApp-Dog/todo-list.journal")
        let handle = try FileHandle(forWritingTo: journal)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not a change\n".utf8))
        try handle.close()

        let relaunched = try await app.run(["quit"], arguments: ["--offline"])
        let firstFrame = try #require(relaunched.output.components(separatedBy: "> quit\n").first)
        #expect(
            firstFrame.contains("1. [ ] kept") && firstFrame.contains("2. [ ] also kept"), "\(firstFrame)")
        #expect(firstFrame.contains("Todos: stored data could not be read"), "\(firstFrame)")
        #expect(!firstFrame.contains("Reading the todos"))
        let again = try await app.run(["quit"], arguments: ["--offline"])
        let frame = try #require(again.output.components(separatedBy: "> quit\n").first)
        #expect(
            frame.contains("2. [ ] also kept") && !frame.contains("could not be read"),
            "reported once: \(frame)")
    }
}
