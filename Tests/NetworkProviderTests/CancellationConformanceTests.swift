import Foundation
import HTTPTestServer
import NetworkProvider
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cancellation wins on every transport, whenever it arrives.
@Suite("Cancellation conformance")
struct CancellationConformanceTests {
    @Test(
        "20,000 requests cancelled at every moment of their start all end cancelled, at once",
        arguments: TransportKind.allCases)
    func cancellationRace(kind: TransportKind) async throws {
        // The server never answers in time, so a lost cancellation shows as a request that runs
        // into its timeout and ends `.timeout` instead of `.cancelled`: the outcome, not a
        // stopwatch, is what proves no cancellation was lost. Eight requests at a time keep the
        // transport busy, and each is cancelled 0 to 150 µs after it starts, by the canceller's
        // thread: from before the transport has it to after it is on the wire.
        //
        // How long a request takes to end after its cancel is measured by this test's own task,
        // which needs a cooperative thread to run. In a plain `swift test` every suite of the
        // package shares the two threads, and a suite that holds them for seconds (a synchronous
        // wait for a child process) delays a whole round of eight, however fast the transport
        // was. So "at once" is checked on the median wait, which a few stalled rounds do not
        // move and a transport reacting to cancels only on a periodic tick would. The bound,
        // 200 ms, is ten times the median seen under a fresh machine's full `ribcage test`
        // (20.4 ms, which failed the 20 ms bound this had) and under half of what a transport
        // that saw cancels only at a poll's one-second timeout would give; how fast a cancel
        // ends is a benchmark's figure, not this test's.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("late").delayed(by: 600) }
        defer { server.stop() }
        var slow = URLRequest(url: server.url("/api/slow"))
        // Far longer than any stall of the cooperative threads, so a cancel that arrives late
        // still arrives before the deadline: the slowest wait after a cancel seen under a fresh
        // machine's load was 4.5 s, which a 20 s timeout left only four times over.
        slow.timeoutInterval = 120
        let request = slow
        let transport = kind.transport
        let clock = ContinuousClock()
        let canceller = Canceller.shared
        var outcomes: [String: Int] = [:]
        var waits: [Duration] = []
        waits.reserveCapacity(20_000)
        for round in 0..<2_500 {
            let results = await withTaskGroup(of: (String, Duration).self) { group in
                for lane in 0..<8 {
                    group.addTask {
                        let sending = Task { try await transport.send(request) }
                        let cancel = canceller.cancel(
                            sending, at: clock.now + .nanoseconds((round * 8 + lane) * 7_919 % 150_000))
                        let outcome: String =
                            switch await sending.result {
                            case .failure(NetworkError.cancelled): "cancelled"
                            case .failure(let error): "\(error)"
                            case .success: "answered"
                            }
                        let ended = clock.now
                        return (outcome, ended - (cancel.cancelledAt ?? ended))
                    }
                }
                var results: [(String, Duration)] = []
                for await result in group { results.append(result) }
                return results
            }
            for (outcome, wait) in results {
                outcomes[outcome, default: 0] += 1
                waits.append(wait)
            }
        }
        #expect(outcomes == ["cancelled": 20_000], "a request not cancelled ran into its timeout")
        waits.sort()
        let median = waits[waits.count / 2]
        #expect(
            median < .milliseconds(200),
            "median wait after a cancel \(median); slowest \(waits.suffix(3).map(\.description))")
    }

    @Test(
        "8,000 requests cancelled around a redirect's arrival end cancelled or with the 3xx",
        arguments: TransportKind.allCases)
    func cancellationAtRedirect(kind: TransportKind) async throws {
        // FoundationNetworking stops the process when a task is cancelled while its delegate is
        // being asked about a redirect; the transport must keep the two apart. The server
        // answers 302 at once and each request is cancelled 0 to 400 µs after it starts, so
        // cancels land before, during and after the redirect is handed over.
        let server = try HTTPTestServer { _ in .redirect(to: "/api/elsewhere", status: 302) }
        defer { server.stop() }
        let request = URLRequest(url: server.url("/api/moved"))
        let transport = kind.transport
        let clock = ContinuousClock()
        let canceller = Canceller.shared
        var outcomes: [String: Int] = [:]
        for round in 0..<1_000 {
            let results = await withTaskGroup(of: String.self) { group in
                for lane in 0..<8 {
                    group.addTask {
                        let sending = Task { try await transport.send(request) }
                        canceller.cancel(
                            sending, at: clock.now + .nanoseconds((round * 8 + lane) * 7_919 % 400_000))
                        return switch await sending.result {
                        case .failure(NetworkError.cancelled): "cancelled"
                        case .success(let response): "HTTP \(response.statusCode)"
                        case .failure(let error): "\(error)"
                        }
                    }
                }
                var results: [String] = []
                for await result in group { results.append(result) }
                return results
            }
            for outcome in results { outcomes[outcome, default: 0] += 1 }
        }
        #expect(Set(outcomes.keys).isSubset(of: ["cancelled", "HTTP 302"]), "\(outcomes)")
        #expect(outcomes.values.reduce(0, +) == 8_000)
    }

    @Test("cancelling closes the connection the request was on", arguments: TransportKind.allCases)
    func closesConnection(kind: TransportKind) async throws {
        let server = try HTTPTestServer { _ in HTTPTestReply.text("late").delayed(by: 60) }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never)
        let request = Task { try await provider.request(TestTarget(server, "slow")) }
        try #require(await server.waitForRequests(), "the request never reached the server")
        request.cancel()
        guard case .failure(NetworkError.cancelled) = await request.result else {
            Issue.record("expected cancelled")
            return
        }
        await server.waitForAbandonedReplies()
        #expect(server.abandonedReplies == 1, "the server still holds the cancelled request's connection")
    }

    @Test("cancelling during a retry's wait ends the request at once", arguments: TransportKind.allCases)
    func cancelDuringBackoff(kind: TransportKind) async throws {
        // The wait is ten minutes and the bound two, measured from the cancel: a loaded machine
        // may hold the cancelled task back for tens of seconds, never for minutes.
        let server = try HTTPTestServer { _ in .status(503, headers: [("Retry-After", "600")]) }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(
            transport: kind.transport, retryPolicy: RetryPolicy(maximumDelay: 600))
        let clock = ContinuousClock()
        let request = Task { try await provider.request(TestTarget(server, "busy")) }
        try #require(await server.waitForRequests(), "the request never reached the server")
        let cancelledAt = clock.now
        request.cancel()
        guard case .failure(NetworkError.cancelled) = await request.result else {
            Issue.record("expected cancelled")
            return
        }
        #expect(clock.now - cancelledAt < .seconds(120))
        #expect(server.requestCount == 1)
    }
}
