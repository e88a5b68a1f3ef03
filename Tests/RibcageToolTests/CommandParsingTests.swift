import ArgumentParser
import RibcageTool
import Testing

/// The commands module on its own: `ribcage`'s arguments reach the right subcommand, and a bad
/// value is refused while parsing, before anything runs (the executable's tests cover the runs).
@Suite("ribcage's arguments")
struct CommandParsingTests {
    @Test("each subcommand takes its own options")
    func subcommands() throws {
        let parsed = [
            try RibcageCommand.parseAsRoot(["graph", "--format", "mermaid", "--skip-tests"]),
            try RibcageCommand.parseAsRoot(["test", "--cache", "--retry", "1"]),
            try RibcageCommand.parseAsRoot(["lint"]),
        ]
        #expect(parsed.map { "\(type(of: $0))" } == ["GraphCommand", "TestCommand", "LintCommand"])
    }

    @Test("a value out of range or not among the choices is refused with its reason")
    func refusals() {
        let refused = [
            (["test", "--cache-timeout", "0"], "positive number of seconds"),
            (["graph", "--format", "gif"], "gif"),
            (["test", "--remote-executor", "http://127.0.0.1:8980"], "grpc://HOST:PORT or unix:PATH"),
            (["test", "--remote-executor", "grpc://127.0.0.1:0"], "grpc://HOST:PORT or unix:PATH"),
            (["test", "--remote-jobs", "0"], "--remote-jobs takes 1 or more"),
            (["test", "--remote-timeout", "0"], "--remote-timeout takes a positive number of seconds"),
        ]
        for (arguments, reason) in refused {
            do {
                _ = try RibcageCommand.parseAsRoot(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(RibcageCommand.message(for: error).contains(reason), "\(arguments)")
            }
        }
    }
}
