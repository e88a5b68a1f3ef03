import Foundation
import HTTPTestServer
import Testing

@testable import NetworkProvider

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `CurlMultiLoop` with nothing to do sleeps in `epoll_wait` until curl's timer or a socket
/// needs it, and one waiting for a slow server wakes only when bytes arrive or a timer is due.
///
/// These are correctness tests, not timings: a loop that spins shows as thousands of wakeups a
/// second and its thread's CPU time growing with the wall clock, however loaded the machine is;
/// a loop that sleeps shows neither, however slow the machine is. The figures are the loop
/// thread's own (its wakeup count and the kernel's account of its CPU time), so suites running
/// beside these in the process do not blur them.
@Suite("CurlMultiLoop at rest")
struct CurlLoopIdleTests {
    /// A second at rest may see a timer curl set while it worked (a few wakeups); a spinning loop
    /// wakes tens of thousands of times.
    static let restingWakeups = 5
    static let restingCPU = Duration.milliseconds(20)

    @Test("After sequential and concurrent requests, a loop with idle keep-alive connections sleeps")
    func idleWithConnectionsInTheCache() async throws {
        let server = try HTTPTestServer { _ in HTTPTestReply.text("ok") }
        defer { server.stop() }
        let transport = CurlTransport(loopCount: 2)
        try await exercise(transport, on: server)

        let rest = try await measureRest(of: transport.loops)
        #expect(rest.wakeups <= Self.restingWakeups, "wakeups in 1 s at rest: \(rest)")
        #expect(rest.cpu <= Self.restingCPU, "loop CPU in 1 s at rest: \(rest)")
    }

    @Test("A loop sleeps after the server closed the connections it keeps")
    func idleAfterTheServerHungUp() async throws {
        // Each closed connection turns its socket readable for good (end of file), so a socket
        // left in epoll's watch set would wake the loop on every wait.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("ok") }
        let transport = CurlTransport(loopCount: 2)
        try await exercise(transport, on: server)
        server.stop()

        let rest = try await measureRest(of: transport.loops)
        #expect(rest.wakeups <= Self.restingWakeups, "wakeups in 1 s at rest: \(rest)")
        #expect(rest.cpu <= Self.restingCPU, "loop CPU in 1 s at rest: \(rest)")
    }

    @Test("A loop waiting for a server that drips its body wakes once a byte, not in a loop")
    func waitingForADripDoesNotSpin() async throws {
        // 12 bytes, one every 150 ms: the answer takes 1.8 s, and the measured second has 6 or 7
        // bytes in it. Each byte is a socket event; curl's own timers for the transfer add a few.
        let server = try HTTPTestServer { _ in
            HTTPTestReply(status: 200, body: Data("drip-drip-ok".utf8)).dripping(1, every: 0.15)
        }
        defer { server.stop() }
        let transport = CurlTransport(loopCount: 1)
        var request = URLRequest(url: server.url("/api/drip"))
        request.timeoutInterval = 30
        let slow = request
        let answer = Task { try await transport.send(slow) }
        try await Task.sleep(for: .milliseconds(300))

        let during = try await measureRest(of: transport.loops)
        let response = try await answer.value
        #expect(response.body == Data("drip-drip-ok".utf8))
        #expect(during.wakeups <= 40, "wakeups in 1 s of a drip: \(during)")
        #expect(during.cpu <= Self.restingCPU, "loop CPU in 1 s of a drip: \(during)")
    }
}

/// 50 requests one after another and 4 rounds of 16 at once, all answered.
func exercise(_ transport: CurlTransport, on server: HTTPTestServer) async throws {
    let request = URLRequest(url: server.url("/api/ok"))
    for _ in 0..<50 {
        #expect(try await transport.send(request).statusCode == 200)
    }
    for _ in 0..<4 {
        try await withThrowingTaskGroup { group in
            for _ in 0..<16 { group.addTask { try await transport.send(request).statusCode } }
            for try await status in group { #expect(status == 200) }
        }
    }
}

/// What `loops` did, together, over one second in which the test asks nothing of them.
private func measureRest(of loops: [CurlMultiLoop]) async throws -> (wakeups: Int, cpu: Duration) {
    // A moment first, for sockets curl is closing and its last timers.
    try await Task.sleep(for: .milliseconds(100))
    let before = loops.map { ($0.wakeups, $0.threadCPUTime) }
    try await Task.sleep(for: .seconds(1))
    var wakeups = 0
    var cpu = Duration.zero
    for (loop, (wakeupsBefore, cpuBefore)) in zip(loops, before) {
        wakeups += loop.wakeups - wakeupsBefore
        // A thread that ended used nothing more.
        if let cpuBefore, let cpuAfter = loop.threadCPUTime { cpu += cpuAfter - cpuBefore }
    }
    return (wakeups, cpu)
}
