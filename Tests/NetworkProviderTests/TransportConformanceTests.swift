import Foundation
import HTTPTestServer
import NetworkProvider
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One suite every transport passes, against a real server on 127.0.0.1.
@Suite("Transport conformance")
struct TransportConformanceTests {
    struct Echo: Codable, Equatable {
        var method: String
        var path: String
        var query: [String: String]
        var body: String
        var token: String?
    }

    /// Echoes the request back as JSON.
    static func echoServer() throws -> HTTPTestServer {
        try HTTPTestServer { request in
            let query = Dictionary(request.query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
            let echo = Echo(
                method: request.method, path: request.path, query: query,
                body: String(decoding: request.body, as: UTF8.self),
                token: request.header("x-token"))
            let data = (try? JSONEncoder().encode(echo)) ?? Data()
            return HTTPTestReply(
                status: 200, headers: [("Content-Type", "application/json"), ("X-Served-By", "test")],
                body: data)
        }
    }

    @Test("GET with headers and query parameters, decoded as JSON", arguments: TransportKind.allCases)
    func getWithQuery(kind: TransportKind) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        var target = TestTarget(server, "search?q=cat")  // a query in the path survives
        target.task = .requestParameters([
            URLQueryItem(name: "limit", value: "2"), URLQueryItem(name: "tag", value: "a b&c"),
        ])
        target.headers = ["X-Token": "abc"]
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport).request(target)
        let echo = try response.map(Echo.self)
        #expect(echo.method == "GET")
        #expect(echo.path == "/api/search")
        #expect(echo.query == ["q": "cat", "limit": "2", "tag": "a b&c"])
        #expect(echo.token == "abc")
        #expect(response.value(forHTTPHeaderField: "x-served-by") == "test")
        #expect(response.statusCode == 200)
        #expect(response.request.url?.query?.contains("q=cat") == true)
    }

    @Test(
        "sends a query written in the path percent-encoded, never crashing on it",
        arguments: TransportKind.allCases)
    func queryInPath(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            .text("\(request.rawQuery ?? "")\n\(request.queryValue("q") ?? "")")
        }
        defer { server.stop() }
        let target = TestTarget(server, #"search?q=a b|ü"x"&r=%41%zz"#)
        let answer = try await NetworkProvider<TestTarget>(transport: kind.transport).request(target)
            .mapString()
        #expect(answer == #"q=a%20b%7C%C3%BC%22x%22&r=%41%25zz"# + "\n" + #"a b|ü"x""#)
    }

    @Test("POST with a JSON body, a form body, and multipart", arguments: TransportKind.allCases)
    func post(kind: TransportKind) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport)
        var target = TestTarget(server, "todos")
        target.method = .post
        target.task = .requestJSONEncodable(["title": "Walk the dog"])
        #expect(try await provider.request(target).map(Echo.self).body == #"{"title":"Walk the dog"}"#)

        target.task = .requestFormURLEncoded([URLQueryItem(name: "name", value: "Rex & Tom")])
        #expect(try await provider.request(target).map(Echo.self).body == "name=Rex%20%26%20Tom")

        target.task = .uploadMultipart([
            MultipartFormData(
                name: "photo", data: Data("JPEG".utf8), fileName: "a.jpg", mimeType: "image/jpeg")
        ])
        let multipart = try await provider.request(target).map(Echo.self).body
        #expect(multipart.contains(#"Content-Disposition: form-data; name="photo"; filename="a.jpg""#))
        #expect(multipart.contains("Content-Type: image/jpeg\r\n\r\nJPEG\r\n"))
    }

    @Test("maps 4xx and 5xx to statusCode errors that carry the response", arguments: TransportKind.allCases)
    func statusErrors(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            request.path.hasSuffix("missing")
                ? .json(#"{"status":"error","message":"Breed not found","code":404}"#, status: 404)
                : .status(500)
        }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never)
        let notFound = await Result { try await provider.request(TestTarget(server, "missing")) }
        guard case .statusCode(let response) = notFound.failure else {
            Issue.record("expected statusCode, got \(notFound)")
            return
        }
        #expect(response.statusCode == 404)
        #expect(try response.mapString(atKeyPath: "message") == "Breed not found")
        let serverError = await Result { try await provider.request(TestTarget(server, "boom")) }
        #expect(serverError.failure?.response?.statusCode == 500)

        var lenient = TestTarget(server, "missing")
        lenient.validationType = .none
        #expect(try await provider.request(lenient).statusCode == 404)
    }

    @Test(
        "reports malformed JSON and an empty body as decoding errors with their path",
        arguments: TransportKind.allCases)
    func decodingErrors(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            switch request.path {
            case "/api/malformed": .json(#"{"message": "https://images.dog.ceo/x.jpg", "status": "succ"#)
            case "/api/wrong": .json(#"{"message": 42, "status": "success"}"#)
            default: .status(200)
            }
        }
        defer { server.stop() }
        struct Dog: Decodable {
            var message: String
            var status: String
        }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport)
        for path in ["malformed", "empty"] {
            let response = try await provider.request(TestTarget(server, path))
            #expect(throws: NetworkError.self) { try response.map(Dog.self) }
        }
        let wrong = try await provider.request(TestTarget(server, "wrong"))
        do {
            _ = try wrong.map(Dog.self)
            Issue.record("decoding a number as a String must fail")
        } catch let NetworkError.decoding(response, codingPath, _) {
            #expect(codingPath == ["message"])
            #expect(response.statusCode == 200)
        }
    }

    @Test("times out on a slow response", arguments: TransportKind.allCases)
    func timeout(kind: TransportKind) async throws {
        // The server answers long after the bound below, so the check holds on a loaded machine
        // too (in a plain `swift test` every suite starts at once on two cores, and a request
        // waited up to 30 s for a thread there); stopping the server does not wait for the answer.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("late").delayed(by: 600) }
        defer { server.stop() }
        var target = TestTarget(server, "slow")
        target.timeout = 0.3
        let clock = ContinuousClock()
        let start = clock.now
        let result = await Result {
            try await NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never).request(
                target)
        }
        guard case .timeout = result.failure else {
            Issue.record("expected timeout, got \(result)")
            return
        }
        #expect(clock.now - start < .seconds(120), "the request gave up long before the server answered")
    }

    @Test("reports a refused connection as a transport failure", arguments: TransportKind.allCases)
    func connectionRefused(kind: TransportKind) async throws {
        let target = TestTarget(baseURL: try closedPort(), path: "x")
        let result = await Result {
            try await NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never).request(
                target)
        }
        guard case .transport(let failure) = result.failure else {
            Issue.record("expected a transport failure, got \(result)")
            return
        }
        #expect(failure.kind == .connectionRefused)
    }

    @Test("reports a body cut short by the server as a transport failure", arguments: TransportKind.allCases)
    func truncatedBody(kind: TransportKind) async throws {
        let server = try HTTPTestServer { _ in
            HTTPTestReply.text(String(repeating: "x", count: 10_000)).truncated(after: 100)
        }
        defer { server.stop() }
        let result = await Result {
            try await NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never).request(
                TestTarget(server, "cut"))
        }
        guard case .transport = result.failure else {
            Issue.record("expected a transport failure, got \(result)")
            return
        }
    }

    @Test("follows redirects", arguments: TransportKind.allCases)
    func redirects(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            request.path == "/api/old" ? .redirect(to: "/api/new") : .text("arrived at \(request.path)")
        }
        defer { server.stop() }
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport).request(
            TestTarget(server, "old"))
        #expect(try response.mapString() == "arrived at /api/new")
        #expect(response.url?.path == "/api/new")
    }

    static func tenMegabytes() -> Data {
        var body = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 256) })
        while body.count < 10_000_000 { body.append(body.prefix(10_000_000 - body.count)) }
        return body
    }

    @Test("receives a 10 MB body intact", arguments: TransportKind.allCases)
    func largeBody(kind: TransportKind) async throws {
        // Built by doubling a varied seed (memcpy, not a per-byte loop, which a debug build makes
        // slow enough to starve the other tests' clocks).
        let body = Self.tenMegabytes()
        let server = try HTTPTestServer { _ in HTTPTestReply(status: 200, body: body) }
        defer { server.stop() }
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport).request(
            TestTarget(server, "big"))
        #expect(response.data.count == 10_000_000)
        #expect(response.data == body)
    }

    @Test("serves 200 concurrent requests, each with its own answer", arguments: TransportKind.allCases)
    func concurrentRequests(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in .text("answer \(request.queryValue("n") ?? "?")") }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport)
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<200 {
                group.addTask {
                    var target = TestTarget(server, "n")
                    target.task = .requestParameters([URLQueryItem(name: "n", value: String(index))])
                    return (index, try await provider.request(target).mapString())
                }
            }
            var answers: [Int: String] = [:]
            for try await (index, answer) in group { answers[index] = answer }
            return answers
        }
        #expect(answers.count == 200)
        #expect(answers.allSatisfy { $0.value == "answer \($0.key)" })
    }

    @Test("cancels a request in flight", arguments: TransportKind.allCases)
    func cancellation(kind: TransportKind) async throws {
        // A request that ignored the cancel would still end `.cancelled` (the provider checks the
        // task), at its own timeout, so the clock tells the two apart. It runs from the cancel, not
        // from the test's start: in a plain `swift test` every suite starts at once on two cores,
        // and getting the request to the server alone took up to 30 s there. The timeout and the
        // answer are ten minutes away, the bound two.
        let server = try HTTPTestServer { _ in HTTPTestReply.text("late").delayed(by: 600) }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport)
        var target = TestTarget(server, "slow")
        target.timeout = 600
        let task = Task { [target] in try await provider.request(target) }
        try #require(await server.waitForRequests(), "the request never reached the server")
        let clock = ContinuousClock()
        let cancelled = clock.now
        task.cancel()
        let result = await task.result
        guard case .failure(NetworkError.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(clock.now - cancelled < .seconds(120), "ended by the cancel, not by the request's timeout")
    }
}

@Suite("CurlTransport")
struct CurlTransportTests {
    @Test("stops a body over the size limit with a typed error")
    func sizeLimit() async throws {
        let server = try HTTPTestServer { _ in HTTPTestReply(status: 200, body: Data(count: 2_000_000)) }
        defer { server.stop() }
        let transport = CurlTransport(maximumResponseSize: 1_000_000)
        let result = await Result {
            try await NetworkProvider<TestTarget>(transport: transport, retryPolicy: .never).request(
                TestTarget(server, "big"))
        }
        guard case .responseTooLarge(let limit) = result.failure else {
            Issue.record("expected responseTooLarge, got \(result)")
            return
        }
        #expect(limit == 1_000_000)
    }

    @Test("reuses keep-alive connections for sequential requests")
    func keepAlive() async throws {
        let server = try HTTPTestServer { _ in .text("ok") }
        defer { server.stop() }
        // A multi handle of its own: the shared ones' connection caches are busy with other tests.
        let provider = NetworkProvider<TestTarget>(transport: CurlTransport(loopCount: 1))
        for _ in 0..<50 { _ = try await provider.request(TestTarget(server, "ping")) }
        #expect(server.requestCount == 50)
        // libcurl may open a second connection while it probes the first; never one per request.
        #expect(server.acceptedConnections <= 2)
    }
}

extension Result where Failure == NetworkError {
    /// Runs a throwing request and keeps its outcome.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch let error as NetworkError {
            self = .failure(error)
        } catch {
            self = .failure(
                .transport(TransportFailure(kind: .other, message: "not a NetworkError: \(error)")))
        }
    }
}
