import Foundation
import Subprocess
import Synchronization
import SystemPackage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The probes the tests start never outlive them: a probe left in one of its endless loops
/// keeps writing and keeps the test runner's pipes open, so the run never ends.
@Suite("Child processes end with the test")
struct ChildProcessTests {
    @Test("a probe whose parent is killed ends too, even in the middle of its endless loop")
    func endsWithItsParent() async throws {
        let folder = try TemporaryFolder()
        // The parent stands for a test process that crashes: it starts the looping child with
        // a pipe on its standard input, as the tests do, and is killed with SIGKILL.
        let result = try await Subprocess.run(
            .path(try storageProbe()), arguments: ["parent-of", "journal-loop", folder.url.path, "8"],
            input: .inputWriter, output: .sequence, error: .discarded
        ) { execution in
            var child: ProcessWatch?
            // The child shares the parent's standard output: its first `ack` says it is writing.
            for try await line in execution.standardOutput.strings() {
                if line.hasPrefix("child "), let pid = pid_t(line.dropFirst(6)) {
                    child = try ProcessWatch(pid)
                }
                if line.hasPrefix("ack ") { break }
            }
            try execution.send(signal: .kill)
            return try #require(child, "the parent printed no child")
        }
        #expect(result.terminationStatus == .signaled(SIGKILL))
        let child = result.closureResult
        #expect(await child.ends(within: .seconds(600)), "the orphaned child is still running")
        // Nothing writes to the folder any more: its journal reads whole.
        let summary = try await runProbe(["journal-check", folder.url.path])
        #expect(summary.hasSuffix("setAside 0"), "\(summary)")
    }

    @Test("a test that throws while its probe runs leaves no probe behind")
    func endsWhenTheTestThrows() async throws {
        let folder = try TemporaryFolder()
        let watch = Mutex<ProcessWatch?>(nil)
        await #expect(throws: Abandoned.self) {
            try await Subprocess.run(
                .path(try storageProbe()), arguments: ["journal-loop", folder.url.path, "8"],
                input: .inputWriter, output: .sequence, error: .discarded
            ) { execution in
                let child = try ProcessWatch(execution.processIdentifier.value)
                watch.withLock { $0 = child }
                for try await line in execution.standardOutput.strings() where line.hasPrefix("ack ") {
                    break
                }
                throw Abandoned()
            }
        }
        let child = try #require(watch.withLock { $0 })
        #expect(await child.ends(within: .zero), "run returned with its child still alive")
    }

    @Test("run by hand, with no pipe on its standard input, the probe does not watch it")
    func runsWithoutAPipe() async throws {
        let folder = try TemporaryFolder()
        let result = try await Subprocess.run(
            .path(try storageProbe()), arguments: ["journal-appender", folder.url.path, "1", "3", "8"],
            input: .none, output: .discarded, error: .string(limit: 1 << 16))
        #expect(result.terminationStatus.isSuccess, "\(result.standardError)")
        let summary = try await runProbe(["journal-check", folder.url.path])
        #expect(summary == "count 3 max 1000003 distinct 3 setAside 0")
    }
}

private struct Abandoned: Error {}

/// Watches a process, child or not, through a Linux pidfd, which becomes readable when the
/// process ends. Opened while the process runs, it keeps watching that process even if its id
/// is reused later.
final class ProcessWatch: Sendable {
    private let descriptor: Int32

    init(_ pid: pid_t) throws {
        // glibc 2.36 has pidfd_open, but the Glibc module does not export it.
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        guard let symbol = dlsym(nil, "pidfd_open") else { throw Errno.noFunction }
        let descriptor = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
        guard descriptor >= 0 else { throw Errno(rawValue: errno) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Whether the process ends within `timeout`, waited for on a thread of its own so that no
    /// thread of the cooperative pool blocks.
    func ends(within timeout: Duration) async -> Bool {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                var ready: Int32
                repeat { ready = poll(&entry, 1, milliseconds) } while ready == -1 && errno == EINTR
                continuation.resume(returning: ready == 1)
            }
        }
    }
}
