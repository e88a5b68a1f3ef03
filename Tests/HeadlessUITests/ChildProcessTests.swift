import HeadlessUITesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("ChildProcess: a program started for a test")
struct ChildProcessTests {
    /// A descriptor opened without close-on-exec (as swift-nio and FoundationNetworking's
    /// libcurl open their sockets) stays out of the child; a child that held one kept another
    /// test's connection open.
    @Test func inheritsNoDescriptorButTheStandardOnes() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        // A number no shell uses for itself; F_DUPFD takes a free one, never another test's.
        let leaky = fcntl(ends[1], F_DUPFD, 100)
        try #require(leaky >= 100)
        defer { for descriptor in ends + [leaky] { close(descriptor) } }
        // The shell's status says whether it holds the descriptor: 0 if it does, 1 if not.
        let status = try await ChildProcess.run(["/bin/sh", "-c", "[ -e /proc/$$/fd/\(leaky) ]"]) { _ in }
        #expect(status == 1, "the child holds descriptor \(leaky)")
    }

    /// The caller's own actions still give the child its standard descriptors.
    @Test func theCallersStandardDescriptorsStillReachTheChild() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let status = try await ChildProcess.run(["/bin/sh", "-c", "printf child"]) { actions in
            posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)
        }
        close(writeEnd)
        #expect(status == 0)
        // The child has ended, so what it wrote is there; never wait on a pool thread.
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(readEnd, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "child")
    }
}
