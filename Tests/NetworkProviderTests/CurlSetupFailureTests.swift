import Foundation
import HTTPTestServer
import NetworkProvider
import Subprocess
import SystemPackage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `CurlTransport` in a process out of file descriptors or threads, and the descriptors a
/// transport gives back when it goes. They run in `network-probe`, a child process: lowering
/// `RLIMIT_NOFILE` or `RLIMIT_NPROC` here would fail the suites running beside these, and their
/// sockets would blur a count of this process's descriptors.
@Suite("CurlTransport out of descriptors or threads")
struct CurlSetupFailureTests {
    @Test("Out of descriptors, a request fails with the resource that could not be made, and nothing leaks")
    func requestsFailWithTheResourceThatRanOut() async throws {
        let server = try HTTPTestServer { _ in HTTPTestReply.text("ok") }
        defer { server.stop() }
        let lines = try await runNetworkProbe(["exhaust", server.url("/api/ok").absoluteString])

        // Each loop makes its epoll instance, then its eventfd, then its timerfd: with 0, 1 or 2
        // descriptors left, the one after them fails, and what was made before is closed again,
        // so the same attempt fails the same way with as many descriptors left.
        let expected: [Int: String] = [0: "epoll instance", 1: "eventfd", 2: "timerfd"]
        for (free, resource) in expected.sorted(by: { $0.key < $1.key }) {
            for attempt in ["1", "2"] {
                let line = try #require(
                    lines.first {
                        $0["case"] == "own" && $0["free"] == "\(free)" && $0["attempt"] == attempt
                    },
                    "no line for \(free) free, attempt \(attempt) in \(lines)")
                #expect(line["outcome"] == "unavailable|\(resource)|\(EMFILE)", "\(line)")
                #expect(line["left"] == "\(free)", "descriptors left after the attempt: \(line)")
            }
        }
        let shared = try #require(lines.first { $0["case"] == "shared" })
        #expect(shared["outcome"] == "unavailable|epoll instance|\(EMFILE)", "\(shared)")
        #expect(shared["left"] == "0", "\(shared)")

        // With the limit raised, the shared transport that failed makes its loops at its next
        // request, and new transports work.
        for name in ["shared again", "new shared", "new own"] {
            let line = try #require(lines.first { $0["case"] == name }, "no line \(name) in \(lines)")
            #expect(line["outcome"] == "status 200", "\(line)")
        }
    }

    @Test("When no thread can start, a request fails naming the thread instead of waiting for ever")
    func requestsFailWhenNoThreadCanStart() async throws {
        // Foundation's Thread.start() ignores a failed pthread_create: the loop was never driven
        // and the request waited past its own timeout, which the loop's timerfd runs.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("ok") }
        defer { server.stop() }
        let lines = try await runNetworkProbe(["threads", server.url("/api/ok").absoluteString])

        for attempt in ["1", "2"] {
            let line = try #require(
                lines.first { $0["case"] == "threads" && $0["attempt"] == attempt },
                "no attempt \(attempt) in \(lines)")
            #expect(line["outcome"] == "unavailable|thread|\(EAGAIN)", "\(line)")
            #expect(line["descriptors"] == "as before", "\(line)")
        }
        let again = try #require(lines.first { $0["case"] == "threads again" }, "\(lines)")
        #expect(again["outcome"] == "status 200", "\(again)")
    }

    @Test("A released transport's loops close their connections and descriptors")
    func releasedTransportGivesItsDescriptorsBack() async throws {
        let server = try HTTPTestServer { _ in HTTPTestReply.text("ok") }
        defer { server.stop() }
        let lines = try await runNetworkProbe(["release", server.url("/api/ok").absoluteString])

        let line = try #require(lines.first, "no output")
        let before = try #require(line["before"].flatMap { Int($0) }, "\(line)")
        let during = try #require(line["during"].flatMap { Int($0) }, "\(line)")
        #expect(line["failures"] == "none", "\(line)")
        #expect(line["loops"] == "2", "\(line)")
        // Two loops' epoll, eventfd and timerfd, and at least one kept connection (curl's own
        // socket pair per multi handle comes on top where libcurl makes one).
        #expect(during >= before + 7, "\(line)")
        #expect(line["after"] == "\(before)", "descriptors left behind: \(line)")
        #expect(line["left open"] == "none", "\(line)")
    }

    @Test("The error names the resource and the system's reason")
    func errorDescription() {
        let error = NetworkError.transportUnavailable(
            TransportSetupFailure(resource: .eventfd, code: .EMFILE))
        #expect("\(error)" == "The transport could not create its eventfd: Too many open files (errno 24).")
        let noReason = TransportSetupFailure(resource: .curlMultiHandle, code: nil)
        #expect(
            "\(noReason)"
                == "The transport could not create its curl multi handle: no reason given (out of memory?)")
    }
}

/// Runs `network-probe`, built next to this test bundle, to its end and returns its lines, each
/// as its `key=value` fields.
func runNetworkProbe(_ arguments: [String]) async throws -> [[String: String]] {
    let testBinary = URL(
        fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let probe = testBinary.deletingLastPathComponent().appendingPathComponent("network-probe")
    try #require(
        FileManager.default.isExecutableFile(atPath: probe.path),
        "network-probe is not built at \(probe.path); run `swift build` first")
    let result = try await Subprocess.run(
        .path(FilePath(probe.path)), arguments: Arguments(arguments),
        output: .string(limit: 1 << 16), error: .string(limit: 1 << 16))
    #expect(
        result.terminationStatus.isSuccess,
        "network-probe \(arguments.joined(separator: " ")) ended \(result.terminationStatus): \(result.standardError)"
    )
    return result.standardOutput.split(separator: "\n").map { line in
        Dictionary(
            line.split(separator: "\t").map { field in
                let parts = field.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            },
            uniquingKeysWith: { $1 })
    }
}
