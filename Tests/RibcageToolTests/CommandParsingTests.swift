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
            try RibcageCommand.parseAsRoot([
                "worker", "--bots-server", "grpc://127.0.0.1:50061", "--bot-id", "w1",
            ]),
        ]
        #expect(
            parsed.map { "\(type(of: $0))" } == [
                "GraphCommand", "TestCommand", "LintCommand", "WorkerCommand",
            ])
    }

    @Test("a value out of range or not among the choices is refused with its reason")
    func refusals() {
        let refused = [
            (["test", "--cache-timeout", "0"], "positive number of seconds"),
            (["graph", "--format", "gif"], "gif"),
            (["test", "--remote-executor", "http://127.0.0.1:8980"], "grpc://HOST:PORT or unix:PATH"),
            (["test", "--remote-executor", "grpc://127.0.0.1:0"], "grpc://HOST:PORT or unix:PATH"),
            (["test", "--remote-jobs", "0"], "--remote-jobs takes 1 or more"),
            (["test", "--remote-shards", "0"], "--remote-shards takes 1 or more"),
            (["test", "--remote-timeout", "0"], "--remote-timeout takes a positive number of seconds"),
            (["worker"], "--bots-server"),
            (["worker", "--bots-server", "127.0.0.1:50061"], "grpc://HOST:PORT or unix:PATH"),
            (
                ["worker", "--bots-server", "unix:/tmp/grid", "--cas-server", "http://x:1"],
                "grpc://HOST:PORT or unix:PATH"
            ),
            (
                ["worker", "--bots-server", "unix:/tmp/grid", "--bot-id", ""],
                "--bot-id takes a non-empty name"
            ),
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
