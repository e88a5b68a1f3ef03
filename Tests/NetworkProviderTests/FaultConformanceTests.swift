import Foundation
import HTTPTestServer
import NetworkProvider
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every transport meets a misbehaving server the same way: the same typed failure for the same
/// cause, the same deadline, the same size limit, the same decoded body.
@Suite("Fault conformance")
struct FaultConformanceTests {
    static let body = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    /// The outcome of one GET answered with `reply`.
    static func outcome(
        of reply: HTTPTestReply, over transport: any Transport, timeout: TimeInterval? = nil,
        retryPolicy: RetryPolicy = .never
    ) async throws -> Result<Response, NetworkError> {
        let server = try HTTPTestServer { _ in reply }
        defer { server.stop() }
        var target = TestTarget(server, "fault")
        target.timeout = timeout
        return await Result {
            try await NetworkProvider<TestTarget>(transport: transport, retryPolicy: retryPolicy).request(
                target)
        }
    }

    static func expectFailure(
        _ kind: TransportFailure.Kind, _ result: Result<Response, NetworkError>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .transport(let failure) = result.failure else {
            Issue.record("expected \(kind), got \(result)", sourceLocation: sourceLocation)
            return
        }
        #expect(failure.kind == kind, "\(failure)", sourceLocation: sourceLocation)
    }

    /// A fault and the failure kind every transport reports for it.
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        var reply: HTTPTestReply
        var kind: TransportFailure.Kind
        var testDescription: String { name }
    }

    static let faults: [Fault] = [
        Fault(
            name: "a body shorter than its Content-Length",
            reply: .init(status: 200, body: body).truncated(after: 100), kind: .connectionLost),
        Fault(
            name: "a reset in the body",
            reply: .init(status: 200, body: body).failing(.resetAfterBody(bytes: 100)), kind: .connectionLost),
        Fault(
            name: "a chunked body cut short",
            reply: .init(status: 200, body: body).chunked(size: 1_000).truncated(after: 2_500),
            kind: .connectionLost),
        Fault(
            name: "a close before any answer", reply: .init(status: 200).failing(.closeBeforeAnswer),
            kind: .connectionLost),
        Fault(
            name: "a reset before any answer", reply: .init(status: 200).failing(.resetBeforeAnswer),
            kind: .connectionLost),
        Fault(
            name: "a bad chunk size",
            reply: .init(status: 200, body: body).chunked(size: 1_000).failing(.badChunkSize),
            kind: .invalidResponse),
        Fault(
            name: "a status line with no status code", reply: .raw("HTTP/1.1 two hundred\r\nX: y\r\n\r\n"),
            kind: .invalidResponse),
        Fault(
            name: "a status line of HTTP/0.9", reply: .raw("HTTP/0.9 200 OK\r\nContent-Length: 2\r\n\r\nok"),
            kind: .invalidResponse),
        // libcurl takes a first line that does not start with HTTP/ for an HTTP/0.9 answer, which
        // it refuses with the same code as an unsupported URL scheme.
        Fault(
            name: "a garbage status line", reply: .raw("SSH-2.0-OpenSSH_9.6\r\n"), kind: .invalidResponse),
        Fault(
            name: "a gzip body that does not decode",
            reply: HTTPTestReply(
                status: 200, headers: [("Content-Encoding", "gzip")], body: Data(repeating: 0x41, count: 500)),
            kind: .invalidResponse),
    ]

    @Test("classifies each fault the same way", arguments: TransportKind.allCases, Self.faults)
    func classification(kind: TransportKind, fault: Fault) async throws {
        Self.expectFailure(fault.kind, try await Self.outcome(of: fault.reply, over: kind.transport))
    }

    @Test("retries a GET cut short, by default", arguments: TransportKind.allCases)
    func retriesLostConnections(kind: TransportKind) async throws {
        let attempts = Counter()
        let server = try HTTPTestServer { _ in
            attempts.increment() == 1
                ? HTTPTestReply(status: 200, body: Self.body).truncated(after: 10) : .text("ok")
        }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(
            transport: kind.transport, retryPolicy: RetryPolicy(baseDelay: 0.01))
        #expect(try await provider.request(TestTarget(server, "flaky")).mapString() == "ok")
        #expect(attempts.count == 2)
    }

    @Test(
        "reads chunked, close-delimited, empty and HEAD answers intact", arguments: TransportKind.allCases)
    func validFramings(kind: TransportKind) async throws {
        for reply in [
            HTTPTestReply(status: 200, body: Self.body).chunked(size: 777),
            HTTPTestReply(status: 200, body: Self.body).closeDelimited(),
            HTTPTestReply(status: 200, body: Self.body).dripping(2_500, every: 0.01),
        ] {
            #expect(try await Self.outcome(of: reply, over: kind.transport).get().data == Self.body)
        }
        #expect(try await Self.outcome(of: .status(204), over: kind.transport).get().data.isEmpty)
        let server = try HTTPTestServer { _ in HTTPTestReply(status: 200, body: Self.body) }
        defer { server.stop() }
        var head = TestTarget(server, "head")
        head.method = .head
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport).request(head)
        #expect(response.data.isEmpty)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "10000")
    }

    @Test("receives a 32 KiB header", arguments: TransportKind.allCases)
    func largeHeader(kind: TransportKind) async throws {
        let value = String(repeating: "h", count: 32 * 1_024)
        let response = try await Self.outcome(of: .text("ok").header("X-Large", value), over: kind.transport)
            .get()
        #expect(response.value(forHTTPHeaderField: "X-Large") == value)
    }

    // MARK: - Content coding

    /// 10,322 bytes of JSON compressed by zlib (Python's `gzip.compress`) to 627: a body a real
    /// server compresses, not only the stored blocks HTTPTestServer writes.
    static let compressedFixture = Data(
        base64Encoded:
            "H4sIAAAAAAACA53aQW7bMBQG4btoncb6JVKkfJWiC8cRnBQIEpTOKujdWyAnmNl4YeCt5tmSPuprejvGuNyO6fxzernfP8b5dHp9+//FeHx+vz1ej/fT05/jeB6n8fL6dPn+/DE//v64TQ9gInhiwRMrnih4ouKJDU80PNHxxM4Liui8enj28O7h4cPLh6cPbx8eP7z+wusv4jfP6y+8/sLrL7z+wusvvP7C6y+8/srrr7z+Kv7yef2V1195/ZXXX3n9lddfef3C6xdev/D6RVzxef3C6xdev/D6hdcvvH7l9SuvX3n9yutXccPH61dev/L6ldevvP7G62+8/sbrb7z+xutv4n6f1994/Y3X33j9xus3Xr/x+o3Xb7x+4/WbeNzj9Ruv33j9zut3Xr/z+p3X77x+5/U7r9/F0z6v33n9ndffef2d1995/Z3X33n9ndffef1dYI/RHsE9s/CeWYDPLMRnFuQzC/OZBfrMQn1mwT6z2APFfmIPDPwZ+TP0Z+zP4J/RP8N/wv8iADCL8V+xB8IAIxAwQgEjGDDCASMgMEICIygwwgKzmoMAsQeCAyM8MAIEI0QwggQjTDACBSNUMIIFU8yJkNgDIYMRNBhhgxE4GKGDETwY4YMRQBghhKnmaFDsgUDCCCWMYMIIJ4yAwggpjKDCCCuMwMJs5oxY7IHwwggwjBDDCDKMMMMINIxQwwg2jHDDNPOygNgDQYcRdhiBhxF6GMGHEX4YAYgRghhBiOnmrRGxB0IRIxgxwhEjIDFCEiMoMcISIzAxQhOzm9eHvvfg18M07pf755jO0/i8Xo8xpr//AO0YYelSKAAA"
    )

    @Test("asks for gzip and deflate and hands back the decoded body", arguments: TransportKind.allCases)
    func contentCoding(kind: TransportKind) async throws {
        let fixture = try #require(Self.compressedFixture)
        let server = try HTTPTestServer { request in
            let accepted = request.header("Accept-Encoding") ?? ""
            return switch request.path {
            case "/api/gzip" where accepted.contains("gzip"):
                HTTPTestReply(status: 200, body: Self.body).gzipped()
            case "/api/deflate" where accepted.contains("deflate"):
                HTTPTestReply(status: 200, body: Self.body).deflated()
            case "/api/fixture" where accepted.contains("gzip"):
                HTTPTestReply(status: 200, headers: [("Content-Encoding", "gzip")], body: fixture)
            default: .text("no \(request.path) for Accept-Encoding: \(accepted)", status: 406)
            }
        }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never)
        #expect(try await provider.request(TestTarget(server, "gzip")).data == Self.body)
        #expect(try await provider.request(TestTarget(server, "deflate")).data == Self.body)
        let json = try await provider.request(TestTarget(server, "fixture"))
        #expect(json.data.count == 10_322)
        #expect(try json.mapString(atKeyPath: "status") == "success")
    }

    // MARK: - Size limit

    @Test(
        "stops a body over the limit, announced or not, compressed or not, as it arrives",
        arguments: TransportKind.allCases)
    func sizeLimit(kind: TransportKind) async throws {
        let big = Data(count: 3 * Limited.size)
        for reply in [
            HTTPTestReply(status: 200, body: big),
            HTTPTestReply(status: 200, body: big).chunked(size: 64 * 1_024),
            HTTPTestReply(status: 200, body: big).gzipped().chunked(size: 64 * 1_024),
        ] {
            let result = try await Self.outcome(of: reply, over: kind.limited)
            guard case .responseTooLarge(let limit) = result.failure else {
                Issue.record("expected responseTooLarge, got \(result)")
                continue
            }
            #expect(limit == Limited.size)
        }
        let justUnder = Data(count: Limited.size)
        #expect(
            try await Self.outcome(of: HTTPTestReply(status: 200, body: justUnder), over: kind.limited).get()
                .data.count == Limited.size)
    }

    @Test("the size limit is 100 MiB by default, on every transport", arguments: TransportKind.allCases)
    func defaultLimit(kind: TransportKind) {
        #expect(kind.transport.maximumResponseSize == 100 * 1_024 * 1_024)
    }

    // MARK: - Deadlines

    @Test("the timeout is a total deadline: a dripping body fails on time", arguments: TransportKind.allCases)
    func totalDeadline(kind: TransportKind) async throws {
        // One byte every 600 ms keeps an idle timeout from ever firing; 1,000 bytes take 10 min.
        // The bound below sits at a fifth of that, far above any wait for a thread seen when every
        // suite of a plain `swift test` starts at once on two cores (up to 30 s).
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await Self.outcome(
            of: HTTPTestReply(status: 200, body: Data(count: 1_000)).dripping(1, every: 0.6),
            over: kind.transport,
            timeout: 1)
        let elapsed = clock.now - start
        guard case .timeout(let seconds) = result.failure else {
            Issue.record("expected timeout, got \(result)")
            return
        }
        #expect(seconds == 1)
        #expect(elapsed >= .milliseconds(950), "gave up before the deadline: \(elapsed)")
        #expect(elapsed < .seconds(120), "the deadline is total, not idle: \(elapsed)")
    }

    @Test(
        "a timeout is kept to the millisecond: 0.9 s is not 0 s, 2.6 s is not 2 s",
        arguments: TransportKind.allCases)
    func fractionalTimeouts(kind: TransportKind) async throws {
        // One attempt each. Every transport decides between its answer and its deadline off the
        // cooperative pool, so a busy pool delays only the caller's resumption, not the outcome.
        let quick = try await Self.outcome(
            of: HTTPTestReply.text("ok").delayed(by: 0.05), over: kind.transport, timeout: 0.9)
        #expect(try quick.get().mapString() == "ok")
        let late = try await Self.outcome(
            of: HTTPTestReply.text("ok").delayed(by: 2.1), over: kind.transport, timeout: 2.6)
        #expect(try late.get().mapString() == "ok")
    }

    @Test("the deadline covers redirects: each hop gets what is left", arguments: TransportKind.allCases)
    func deadlineAcrossRedirects(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            let hop = Int(request.queryValue("n") ?? "0") ?? 0
            return hop < 3
                ? HTTPTestReply.redirect(to: "/api/hop?n=\(hop + 1)").delayed(by: 0.4) : .text("done")
        }
        defer { server.stop() }
        var target = TestTarget(server, "hop")
        target.timeout = 1
        let result = await Result {
            try await NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never).request(
                target)
        }
        guard case .timeout(let seconds) = result.failure else {
            Issue.record("three hops of 0.4 s must not fit in 1 s; got \(result)")
            return
        }
        #expect(seconds == 1)
    }
}
