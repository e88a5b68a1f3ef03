import Foundation
import RibcagePackage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `/proc` read as a table: the processes a stopped `ribcage` signals, the start gate's search
/// for a test bundle, and the tests that check nothing was left running all read it.
@Suite("The process table")
struct ProcessTableTests {
    @Test("a stat line's fields are read after the name's last parenthesis; zombies are not processes")
    func statLines() {
        let odd = ProcessTable.process(42, stat: "42 (a) (b c)) S 7 40 30 0 -1 4194304 …")
        #expect(odd == ProcessTable.Process(id: 42, parent: 7, processGroup: 40, session: 30))
        #expect(ProcessTable.process(42, stat: "42 (sh) Z 7 40 30 0") == nil)
        #expect(ProcessTable.process(42, stat: "42 (sh) X 7 40 30 0") == nil)
        #expect(ProcessTable.process(42, stat: "42 sh S 7") == nil, "no name in parentheses")
    }

    @Test("ancestors, descendants and session members follow the parents, nearest first")
    func family() {
        let table = ProcessTable([
            .init(id: 1, parent: 0, processGroup: 1, session: 1),
            .init(id: 10, parent: 1, processGroup: 10, session: 10),
            .init(id: 11, parent: 10, processGroup: 11, session: 10),
            .init(id: 12, parent: 11, processGroup: 11, session: 10),
            .init(id: 20, parent: 1, processGroup: 20, session: 20),
        ])
        #expect(table.ancestors(of: 12) == [11, 10, 1])
        #expect(table.ancestors(of: 99) == [], "a process the table lacks has no known parents")
        #expect(Set(table.descendants(of: 10)) == [11, 12])
        #expect(table.descendants(of: 12) == [])
        #expect(Set(table.members(ofSession: 10)) == [10, 11, 12])
    }

    @Test("a parent loop, read while processes came and went, ends the walk up")
    func parentLoop() {
        let table = ProcessTable([
            .init(id: 5, parent: 6, processGroup: 5, session: 5),
            .init(id: 6, parent: 5, processGroup: 5, session: 5),
        ])
        #expect(table.ancestors(of: 5) == [6, 5])
    }

    @Test(
        "a real child: below this process, in its session, with its arguments and folder; a zombie has ended")
    func realChild() async throws {
        let folder = try TemporaryFolder()
        let child = try await startSleep(in: folder.url)
        // On a failed check too (a zombie left then is reaped when the test process ends), but
        // not once reaped: the number may then be another process's.
        var reaped = false
        defer { if !reaped { kill(child, SIGKILL) } }
        let table = ProcessTable.current()
        #expect(table.ancestors(of: child).first == getpid())
        #expect(table.descendants(of: getpid()).contains(child))
        #expect(table.members(ofSession: getsid(0)).contains(child))
        #expect(ProcessTable.arguments(of: child) == ["/bin/sleep", "600"])
        #expect(ProcessTable.workingFolder(of: child) == folder.url.resolvingSymlinksInPath().path)
        #expect(ProcessTable.isRunning(child))

        kill(child, SIGKILL)
        // Not reaped yet: a zombie until then, which runs nothing and is no member of anything.
        var ended = false
        for _ in 0..<600 where !ended {
            ended = !ProcessTable.isRunning(child)
            if !ended { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(ended, "the killed child still counts as running")
        #expect(!ProcessTable.current().processes.contains { $0.id == child })
        #expect(ProcessTable.workingFolder(of: 999_999_999) == nil)
        #expect(ProcessTable.arguments(of: 999_999_999) == nil)
        try await reap(child)
        reaped = true
    }

    /// Starts `/bin/sleep 600` in `folder` (through a shell that changes to it and then becomes
    /// `sleep`) and returns its process ID, once it is `sleep`; it is this process's child.
    private func startSleep(in folder: URL) async throws -> pid_t {
        let arguments = ["/bin/sh", "-c", "cd \"$0\" && exec /bin/sleep 600", folder.path]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
        try #require(status == 0, "posix_spawn: \(String(cString: strerror(status)))")
        for _ in 0..<1_200 where ProcessTable.arguments(of: pid) != ["/bin/sleep", "600"] {
            try await Task.sleep(for: .milliseconds(50))
        }
        return pid
    }

    /// Collects the exit status of `pid`, which was killed, so that no zombie outlives the test;
    /// polled, so that no pool thread waits in `waitpid`.
    private func reap(_ pid: pid_t) async throws {
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
