import Foundation
import HTTPTestServer
import Synchronization
import Testing

@testable import NetworkProvider

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `CurlMultiLoop`, the event loop under `CurlTransport`, against a real loopback server: sockets
/// that come and go, cancels racing a transfer's start, and a loop woken from its sleep.
///
/// Each test has a transport of its own, so that its loop serves that test alone: idle between
/// requests (the next one starts on the caller's thread) and asleep while a stream waits.
@Suite("CurlMultiLoop")
struct CurlMultiLoopTests {
    @Test("1,000 requests to a server that closes every connection leave no socket behind")
    func connectionCloseReusesDescriptors() async throws {
        // Every connection ends after one answer, so curl opens and closes a socket for each
        // request; the kernel hands out the freed descriptor numbers again, which epoll and the
        // loop's `watched` set must follow (a number curl never said goodbye to comes back as a
        // new socket). Other suites run at the same time in this process, so descriptors are
        // counted per peer: the sockets this process holds to this server.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("ok").header("Connection", "close") }
        defer { server.stop() }
        let transport = CurlTransport(loopCount: 1)
        let request = URLRequest(url: server.url("/api/close"))
        var mostSocketsOpen = 0
        for index in 0..<1_000 {
            let response = try await transport.send(request)
            #expect(response.statusCode == 200 && response.body == Data("ok".utf8), "request \(index)")
            if index % 50 == 0 { mostSocketsOpen = max(mostSocketsOpen, try socketsHeld(to: server.port)) }
        }
        #expect(server.acceptedConnections == 1_000, "each request had a connection of its own")
        #expect(mostSocketsOpen <= 1, "at most the one closing socket between requests")
        #expect(try socketsHeld(to: server.port) == 0)
        let load = try transport.loops[0].load
        #expect(load.transfers == 0 && load.sockets == 0, "still tracked: \(load)")
    }

    @Test("Curl's sockets are closed on exec, so a child process holds no connection of ours")
    func socketsAreCloseOnExec() async throws {
        // libcurl 7.88 opens its sockets without SOCK_CLOEXEC; a program that starts a child
        // without closing inherited descriptors would leave the child holding the connection,
        // which the server then never sees closed. /proc/self/fdinfo shows each descriptor's
        // open flags in octal, O_CLOEXEC among them. The request is held open by a late answer,
        // so its socket is still there however long this test waits for a thread.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("late").delayed(by: 60) }
        defer { server.stop() }
        let transport = CurlTransport(loopCount: 1)
        let request = URLRequest(url: server.url("/api/slow"))
        let sending = Task { try await transport.send(request) }
        defer { sending.cancel() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(600)
        var descriptors: [String] = []
        while descriptors.isEmpty, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            descriptors = try socketDescriptors(to: server.port)
        }
        #expect(descriptors.count == 1, "the request's connection")
        for descriptor in descriptors {
            let info = try String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)
            let flags = info.split(separator: "\n").first { $0.hasPrefix("flags:") }
                .flatMap { Int($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) }
            let closeOnExec = 0o2_000_000
            #expect(flags.map { $0 & closeOnExec != 0 } == true, "descriptor \(descriptor): \(info)")
        }
    }

    @Test("3,000 requests cancelled as they start each end cancelled, once")
    func cancelRacesTheFastPathAdd() async throws {
        // The loop is idle between requests, so each request starts its transfer on its own
        // thread (the fast path). The test cancels it 0 to 120 µs after `send` began, from the
        // canceller's thread: before the add, during it, and after it, with the connection under
        // way. The server never answers in time, so a cancel that is lost shows as a request
        // still running; a request resumed twice stops the process (a checked continuation). The
        // deadline only trips on a hang.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("late").delayed(by: 60) }
        defer { server.stop() }
        let transport = CurlTransport(loopCount: 1)
        var slow = URLRequest(url: server.url("/api/slow"))
        slow.timeoutInterval = 50
        let request = slow
        let canceller = Canceller.shared
        // The deadline only guards against a hang: a request whose cancel is lost still ends, at
        // its own 50 s timeout, as another outcome. 3,000 in turn took over 120 s on a loaded
        // two-core CI machine.
        let outcomes = await finishing(within: .seconds(600)) {
            let clock = ContinuousClock()
            var outcomes: [String: Int] = [:]
            for index in 0..<3_000 {
                let (started, start) = AsyncStream.makeStream(of: Void.self)
                let sending = Task {
                    start.finish()
                    return try await transport.send(request)
                }
                for await _ in started {}
                canceller.cancel(sending, at: clock.now + .nanoseconds(index * 7_919 % 120_000))
                let outcome: String =
                    switch await sending.result {
                    case .failure(NetworkError.cancelled): "cancelled"
                    case .failure(let error): "\(error)"
                    case .success: "answered"
                    }
                outcomes[outcome, default: 0] += 1
            }
            return outcomes
        }
        #expect(outcomes == ["cancelled": 3_000], "nil: a request never ended")
        #expect(server.acceptedConnections > 0, "no cancel came after a transfer was under way")
        let load = try transport.loops[0].load
        #expect(load.transfers == 0, "transfers left in the multi handle: \(load.transfers)")
    }

    @Test("A stream whose reader pauses while the loop sleeps resumes, and its body arrives whole")
    func resumeWakesTheSleepingLoop() async throws {
        // 8 MiB against a 1 MiB buffer: curl pauses the transfer whenever the reader is a buffer
        // behind. The reader then waits 200 ms, long enough for the loop to go to sleep in
        // epoll_wait with nothing to watch, so only the eventfd written by the resume command can
        // wake it; without it the transfer would sit until its timeout.
        let body = Data((0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        let server = try HTTPTestServer { _ in HTTPTestReply(status: 200, body: body) }
        defer { server.stop() }
        let transport = CurlTransport(loopCount: 1)
        var request = URLRequest(url: server.url("/api/photo"))
        request.timeoutInterval = 30
        let streamed = try await transport.stream(request)
        #expect(streamed.statusCode == 200)
        var received = Data()
        var pauses = 0
        var nextPause = 1 << 20
        for try await chunk in streamed.body {
            received.append(chunk)
            if received.count >= nextPause, received.count < body.count {
                pauses += 1
                nextPause += 2 << 20
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(received.count == body.count)
        #expect(received == body, "the body arrived changed")
        #expect(pauses >= 3)
    }
}

/// How many sockets this process holds connected to `port` on the loopback interface.
private func socketsHeld(to port: UInt16) throws -> Int {
    try socketDescriptors(to: port).count
}

/// The descriptors of this process's sockets connected to `port` on the loopback interface:
/// each descriptor in /proc/self/fd whose peer (`getpeername`) is 127.0.0.1:`port`.
private func socketDescriptors(to port: UInt16) throws -> [String] {
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    return descriptors.filter { name in
        guard let descriptor = Int32(name) else { return false }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        // Not a connected socket, or closed between the listing and the look.
        guard named == 0, address.sin_family == sa_family_t(AF_INET) else { return false }
        return UInt16(bigEndian: address.sin_port) == port
            && address.sin_addr.s_addr == inet_addr("127.0.0.1")
    }
}

/// `work`'s result, or `nil` when it has not finished within `deadline`; the test goes on either
/// way, so a hang fails it instead of stopping the run.
private func finishing<Result: Sendable>(
    within deadline: Duration, _ work: @escaping @Sendable () async -> Result
) async -> Result? {
    await withCheckedContinuation { continuation in
        let outcome = FirstOutcome(continuation)
        let watchdog = Task {
            do { try await Task.sleep(for: deadline) } catch { return }  // cancelled: work finished
            outcome.resume(nil)
        }
        Task {
            outcome.resume(await work())
            watchdog.cancel()
        }
    }
}

/// Resumes a continuation with the first outcome it is given and ignores the others.
private final class FirstOutcome<Result: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Result?, Never>?>

    init(_ continuation: CheckedContinuation<Result?, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ result: Result?) {
        continuation.withLock { continuation in
            continuation?.resume(returning: result)
            continuation = nil
        }
    }
}
