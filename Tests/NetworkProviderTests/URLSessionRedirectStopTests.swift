import Foundation
import HTTPTestServer
import NetworkProvider
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// FoundationNetworking hands each 3xx to the session's delegate and waits for its answer on
/// the task's queue. A request stopped in that wait (cancelled, or out of time) must end with
/// its reason and leave the process running: an answer that reaches a cancelled task is a
/// fatalError inside FoundationNetworking, which took down a whole `swift test` run.
@Suite("URLSessionTransport: a request stopped while FoundationNetworking waits on a redirect", .serialized)
struct URLSessionRedirectStopTests {
    /// A transport of its own, whose delegate queue the test holds. Kept for the whole run: a
    /// URLSession must not be torn down on Linux.
    static let transport = URLSessionTransport()

    enum Stop: String, CaseIterable, Sendable {
        case cancelled
        case outOfTime
    }

    @Test("ends the request with its reason, and the transport goes on", arguments: Stop.allCases)
    func stopDuringRedirectHandOff(stop: Stop) async throws {
        let server = try HTTPTestServer { request in
            request.path == "/api/start" ? .redirect(to: "/api/end") : .text("end")
        }
        defer { server.stop() }
        let delegateQueue = Self.transport.session.delegateQueue
        // Suspended, the delegate queue keeps what FoundationNetworking asks of the delegate
        // without running it, and without holding a thread: on Linux its operations run on the
        // same dispatch threads as the cooperative pool.
        delegateQueue.isSuspended = true
        defer { delegateQueue.isSuspended = false }

        var request = URLRequest(url: server.url("/api/start"))
        // The cancelled request's own timeout is far away: under a fresh machine's full
        // `swift test`, the wait for the 302 and the cancel once took longer than the 10 s it
        // had, and the request ended out of time instead.
        request.timeoutInterval = stop == .outOfTime ? 0.5 : 600
        let sent = request
        let sending = Task { try await Self.transport.send(sent) }
        // The 302 has arrived: FoundationNetworking has queued its question to the delegate.
        try await waitUntil { delegateQueue.operationCount >= 1 }
        if stop == .cancelled { sending.cancel() }
        let result = await sending.result
        // The stop has reached the task: its completion is queued behind the question.
        try await waitUntil { delegateQueue.operationCount >= 2 }
        delegateQueue.isSuspended = false

        switch (stop, result) {
        case (.cancelled, .failure(NetworkError.cancelled)), (.outOfTime, .failure(NetworkError.timeout)):
            break
        default: Issue.record("a request \(stop) in the redirect's wait ended \(result)")
        }
        try await waitUntil { delegateQueue.operationCount == 0 }
        // The task's queue has run whatever the held question set going before this answer.
        let next = try await Self.transport.send(URLRequest(url: server.url("/api/end")))
        #expect(next.statusCode == 200)
        #expect(String(decoding: next.body, as: UTF8.self) == "end")
    }

    /// Polls `condition` until it holds. The bound only stops a wait that will never end: in a
    /// full `swift test`, FoundationNetworking's queues are shared with suites that send
    /// thousands of requests at once (the 8,000 cancelled around a redirect), and 10 s was
    /// once not enough on a loaded two-core machine.
    private func waitUntil(
        _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while !condition() {
            guard clock.now < deadline else {
                Issue.record("waited 120 s in vain", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
