import Foundation
import HTTPTestServer
import NetworkProvider
import NetworkProviderAsyncHTTPClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What AsyncHTTPClientTransport adds to the conformance suites: the life of its client.
@Suite("AsyncHTTPClientTransport")
struct AsyncHTTPClientTransportTests {
    @Test("a transport dropped without shutdown() shuts its client down instead of asserting")
    func droppedWithoutShutdown() async throws {
        let server = try HTTPTestServer { _ in .text("ok") }
        defer { server.stop() }
        var transport: AsyncHTTPClientTransport? = AsyncHTTPClientTransport()
        let response = try await transport?.send(URLRequest(url: server.url("/api/once")))
        #expect(response?.statusCode == 200)
        // Without the transport's own shutdown, AsyncHTTPClient's debug build stops the process
        // here.
        transport = nil
    }

    @Test("after shutdown() a request fails with a typed error, and shutting down twice is harmless")
    func afterShutdown() async throws {
        let server = try HTTPTestServer { _ in .text("ok") }
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport()
        try await transport.shutdown()
        let result = await Result { try await transport.send(URLRequest(url: server.url("/api/late"))) }
        guard case .transport(let failure) = result.failure else {
            Issue.record("expected a transport failure, got \(result)")
            return
        }
        #expect(failure.kind == .other)
        #expect(server.requestCount == 0)
    }
}
