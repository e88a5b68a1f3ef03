import HTTPTestServer
import NetworkProvider
import Testing

/// The loopback server's waits, which the cancellation tests use to act while a request is in
/// flight instead of sleeping and hoping it is.
@Suite("HTTPTestServer's waits", .timeLimit(.minutes(1)))
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

    @Test("a wait the server can no longer satisfy ends when the server stops, with false")
    func stopEndsWaits() async throws {
        let server = try HTTPTestServer { _ in .status(204) }
        let waiting = Task { await server.waitForRequests(within: .seconds(600)) }
        server.stop()
        #expect(await waiting.value == false)
        #expect(await server.waitForAbandonedReplies(within: .seconds(600)) == false)
    }
}
