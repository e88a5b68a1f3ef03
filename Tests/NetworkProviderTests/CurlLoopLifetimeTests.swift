import Foundation
import HTTPTestServer
import Synchronization
import Testing

@testable import NetworkProvider

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loops a `CurlTransport(loopCount:)` makes for itself end with it: each once its last
/// transfer is over, so a stream read after its transport is gone still reads to its end.
/// (`CurlSetupFailureTests` counts the descriptors they give back, in a process of its own.)
@Suite("CurlMultiLoop lifetime")
struct CurlLoopLifetimeTests {
    @Test("A released transport's loops end their threads")
    func loopsEndWithTheirTransport() async throws {
        let server = try HTTPTestServer { _ in HTTPTestReply.text("ok") }
        defer { server.stop() }
        // The loops, not the transport, are kept: a loop's end does not wait for its last
        // reference to go.
        let (closed, loops) = try await {
            let transport = CurlTransport(loopCount: 2)
            try await exercise(transport, on: server)
            return (transport.loopsClosed, try transport.loops)
        }()
        #expect(closed.count == 2)

        #expect(await allSignalled(closed, within: .seconds(600)), "the loops did not end")
        for loop in loops {
            #expect(loop.kernelThreadID == 0, "the loop thread runs on")
            #expect(loop.load == (0, 0), "still tracked: \(loop.load)")
        }
    }

    @Test("A stream outlives its transport: the loop ends after the body's last byte")
    func streamOutlivesItsTransport() async throws {
        let body = Data("drip-drip-drip-ok".utf8)
        let server = try HTTPTestServer { _ in HTTPTestReply(status: 200, body: body).dripping(1, every: 0.02)
        }
        defer { server.stop() }
        var request = URLRequest(url: server.url("/api/drip"))
        request.timeoutInterval = 30
        let (stream, closed) = try await { [request] in
            let transport = CurlTransport(loopCount: 1)
            return (try await transport.stream(request), transport.loopsClosed)
        }()

        #expect(try await stream.body.collect() == body)
        #expect(await allSignalled(closed, within: .seconds(600)), "the loop did not end after the stream")
    }
}

/// Whether every one of `signals` came within `timeout`; a loop that never ends fails the test
/// rather than hang it.
private func allSignalled(_ signals: [OneTimeSignal], within timeout: Duration) async -> Bool {
    let outcome = Mutex<CheckedContinuation<Bool, Never>?>(nil)
    return await withCheckedContinuation { continuation in
        outcome.withLock { $0 = continuation }
        let finish = { @Sendable (value: Bool) in outcome.withLock { $0.take() }?.resume(returning: value) }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            finish(false)
        }
        Task {
            for signal in signals { await signal.wait() }
            finish(true)
            timer.cancel()
        }
    }
}
