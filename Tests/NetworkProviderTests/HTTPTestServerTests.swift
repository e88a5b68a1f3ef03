import HTTPTestServer
import NetworkProvider
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The loopback server's waits, which the cancellation tests use to act while a request is in
/// flight instead of sleeping and hoping it is.
@Suite("HTTPTestServer's waits", .timeLimit(.minutes(10)))
struct HTTPTestServerTests {
    @Test("waitForRequests returns once the request arrives, and false at its timeout while none has")
    func waitForRequests() async throws {
        let server = try HTTPTestServer { _ in HTTPTestReply.text("late").delayed(by: 60) }
        defer { server.stop() }
        #expect(await server.waitForRequests(within: .milliseconds(20)) == false)
        let provider = NetworkProvider<TestTarget>(transport: CurlTransport(), retryPolicy: .never)
        let request = Task { try await provider.request(TestTarget(server, "slow")) }
        #expect(await server.waitForRequests())
        #expect(server.requestCount == 1)
        #expect(await server.waitForRequests(1, within: .zero), "a count already reached returns at once")

        request.cancel()
        #expect(await server.waitForAbandonedReplies(), "the cancelled request's connection was closed")
        #expect(server.abandonedReplies == 1)
    }

    @Test("a server raises the process's soft limit on open files to its hard limit")
    func openFileLimit() throws {
        let server = try HTTPTestServer { _ in .status(204) }
        defer { server.stop() }
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(limit.rlim_cur == limit.rlim_max)
    }

    @Test("a wait the server can no longer satisfy ends when the server stops, with false")
    func stopEndsWaits() async throws {
        let server = try HTTPTestServer { _ in .status(204) }
        let waiting = Task { await server.waitForRequests(within: .seconds(600)) }
        server.stop()
        #expect(await waiting.value == false)
        #expect(await server.waitForAbandonedReplies(within: .seconds(600)) == false)
    }

    @Test("servers stopped while others start and serve never touch those others' connections")
    func stoppedServersLeaveOthersAlone() async throws {
        // A stopped server once closed its listener while its accept loop could still call
        // `accept` on that number, reused meanwhile by another server's listener: the loop took
        // that server's connection and closed it unanswered. Stopping and starting servers
        // beside each other's requests is how the tests of this package use them.
        let provider = NetworkProvider<TestTarget>(transport: CurlTransport(), retryPolicy: .never)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var failures = 0
                    for round in 0..<40 {
                        // The stopped server has just accepted (its loop is about to accept
                        // again), and the next listener takes the lowest free number: its own.
                        let stopping = try HTTPTestServer { _ in .text("old") }
                        _ = try await provider.request(TestTarget(stopping, "before-stop"))
                        stopping.stop()
                        let serving = try HTTPTestServer { _ in .text("new") }
                        do {
                            let response = try await provider.request(TestTarget(serving, "round-\(round)"))
                            if response.statusCode != 200 { failures += 1 }
                        } catch {
                            failures += 1
                        }
                        serving.stop()
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
