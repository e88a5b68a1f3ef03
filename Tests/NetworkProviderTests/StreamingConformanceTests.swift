import Foundation
import HTTPTestServer
import NetworkProvider
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `provider.bytes(target)` on every transport: the body as it arrives, with the validation, size
/// limit, deadline and cancellation of `request`.
@Suite("Streaming conformance")
struct StreamingConformanceTests {
    @Test("streams a 10 MB body in chunks, intact", arguments: TransportKind.allCases)
    func streamsBody(kind: TransportKind) async throws {
        let body = TransportConformanceTests.tenMegabytes()
        let server = try HTTPTestServer { _ in HTTPTestReply(status: 200, body: body).chunked(size: 100_000) }
        defer { server.stop() }
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport).bytes(
            TestTarget(server, "photo"))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "transfer-encoding") == "chunked")
        var received = Data()
        var chunks = 0
        for try await chunk in response {
            received.append(chunk)
            chunks += 1
        }
        #expect(received == body)
        #expect(chunks > 1)
    }

    @Test("follows redirects, retries before the body, and decodes gzip", arguments: TransportKind.allCases)
    func redirectsRetriesAndCoding(kind: TransportKind) async throws {
        let attempts = Counter()
        let server = try HTTPTestServer { request in
            switch request.path {
            case "/api/old": .redirect(to: "/api/new", status: 301)
            case _ where attempts.increment() == 1: .status(503)
            default: HTTPTestReply.text("the photo").gzipped()
            }
        }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(
            transport: kind.transport, retryPolicy: RetryPolicy(baseDelay: 0.01))
        let response = try await provider.bytes(TestTarget(server, "old"))
        #expect(response.url?.path == "/api/new")
        #expect(try await response.body.collect() == Data("the photo".utf8))
        #expect(attempts.count == 2)
    }

    @Test("a status that fails validation is an error carrying the body", arguments: TransportKind.allCases)
    func validation(kind: TransportKind) async throws {
        let server = try HTTPTestServer { _ in .json(#"{"message":"Breed not found"}"#, status: 404) }
        defer { server.stop() }
        do {
            _ = try await NetworkProvider<TestTarget>(transport: kind.transport).bytes(
                TestTarget(server, "x"))
            Issue.record("a 404 must fail validation")
        } catch .statusCode(let response) {
            #expect(response.statusCode == 404)
            #expect(try response.mapString(atKeyPath: "message") == "Breed not found")
        }
    }

    /// A body that is still arriving whenever the test acts on it: one byte every 200 ms for ten
    /// minutes. When every suite of a plain `swift test` starts at once, a test may wait 20 s and
    /// more for one of the pool's two threads; a 20 s body had ended by then, and a cancel or a
    /// drop came too late to stop anything (CI, stop 41). A transport that fails to stop it is
    /// still bounded by the target's 60 s deadline.
    static let stillFlowing = HTTPTestReply(status: 200, body: Data(count: 3_000)).dripping(1, every: 0.2)

    /// The first error reading `response` throws, or `nil` if it reads to the end.
    static func readingError(
        _ response: StreamedResponse, eachChunk: @Sendable () -> Void = {}
    ) async -> NetworkError? {
        do {
            for try await _ in response { eachChunk() }
            return nil
        } catch {
            return error
        }
    }

    @Test("a body over the size limit fails while it streams", arguments: TransportKind.allCases)
    func sizeLimit(kind: TransportKind) async throws {
        let server = try HTTPTestServer { _ in
            HTTPTestReply(status: 200, body: Data(count: 3 * Limited.size)).chunked(size: 64 * 1_024)
        }
        defer { server.stop() }
        let response = try await NetworkProvider<TestTarget>(transport: kind.limited).bytes(
            TestTarget(server, "big"))
        guard case .responseTooLarge(let limit) = await Self.readingError(response) else {
            Issue.record("expected responseTooLarge")
            return
        }
        #expect(limit == Limited.size)
    }

    @Test("the deadline runs to the body's last byte", arguments: TransportKind.allCases)
    func deadline(kind: TransportKind) async throws {
        let server = try HTTPTestServer { _ in
            Self.stillFlowing
        }
        defer { server.stop() }
        var target = TestTarget(server, "drip")
        target.timeout = 1
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never)
            .bytes(target)
        let stopped = await Self.readingError(response)
        guard case .timeout = stopped else {
            Issue.record("expected timeout, got \(stopped.map { "\($0)" } ?? "the whole body")")
            return
        }
    }

    @Test("cancelling the reading task stops the transfer", arguments: TransportKind.allCases)
    func cancelReading(kind: TransportKind) async throws {
        let server = try HTTPTestServer { _ in
            Self.stillFlowing
        }
        defer { server.stop() }
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport).bytes(
            TestTarget(server, "drip"))
        // Cancel only once the body is really flowing: the server has the request and the
        // reading task holds a byte, whatever the machine's load.
        let (chunks, chunkArrived) = AsyncStream<Void>.makeStream()
        let reading = Task { () -> NetworkError? in
            await Self.readingError(response, eachChunk: { chunkArrived.yield() })
        }
        #expect(await server.waitForRequests())
        var arrivals = chunks.makeAsyncIterator()
        let firstByte: Void? = await arrivals.next()
        #expect(firstByte != nil, "a first byte arrived before the body ended")
        reading.cancel()
        let stopped = await reading.value
        guard case .cancelled = stopped else {
            Issue.record("expected cancelled, got \(stopped.map { "\($0)" } ?? "the whole body")")
            return
        }
        await Self.expectAbandoned(server)
    }

    @Test("dropping a body before its end closes the connection", arguments: TransportKind.allCases)
    func dropBody(kind: TransportKind) async throws {
        let server = try HTTPTestServer { _ in
            Self.stillFlowing
        }
        defer { server.stop() }
        var response: StreamedResponse? = try await NetworkProvider<TestTarget>(transport: kind.transport)
            .bytes(
                TestTarget(server, "drip"))
        #expect(response?.statusCode == 200)
        response = nil
        await Self.expectAbandoned(server)
    }

    static func expectAbandoned(_ server: HTTPTestServer, sourceLocation: SourceLocation = #_sourceLocation)
        async
    {
        await server.waitForAbandonedReplies()
        #expect(server.abandonedReplies == 1, "the transfer went on", sourceLocation: sourceLocation)
    }

    @Test(
        "a slow reader holds the server back instead of the body piling up in memory",
        // FoundationNetworking cannot pause a transfer, so this holds for the other transports.
        arguments: [TransportKind.curl, .asyncHTTPClient])
    func backpressure(kind: TransportKind) async throws {
        let body = Data(count: 64 * 1_024 * 1_024)
        let server = try HTTPTestServer { _ in HTTPTestReply(status: 200, body: body) }
        defer { server.stop() }
        // What is measured is how much the server could send, not how fast: the 64 MiB took over
        // the default 60 s through a debug AsyncHTTPClient on a loaded two-core CI machine.
        var target = TestTarget(server, "huge")
        target.timeout = 600
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport).bytes(target)
        var iterator = response.makeAsyncIterator()
        var received = try await iterator.next()?.count ?? 0
        try await Task.sleep(for: .seconds(1))
        #expect(
            server.bytesSent < 24 * 1_024 * 1_024,
            "\(server.bytesSent) bytes sent to a reader that took one chunk")
        while let chunk = try await iterator.next() { received += chunk.count }
        #expect(received == body.count)
    }
}
