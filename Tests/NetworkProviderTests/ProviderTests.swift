import Foundation
import HTTPTestServer
import Logging
import NetworkProvider
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Building requests")
struct RequestBuildingTests {
    let base = URLComponents(string: "https://dog.ceo/api")?.url ?? URL(fileURLWithPath: "/")

    @Test("joins base and path, keeping a query in the path (Moya escapes it to %3F)")
    func joinsPaths() throws {
        #expect(
            try TestTarget(baseURL: base, path: "breeds/image/random").url().absoluteString
                == "https://dog.ceo/api/breeds/image/random")
        #expect(
            try TestTarget(baseURL: base, path: "/search?q=cat&limit=2").url().absoluteString
                == "https://dog.ceo/api/search?q=cat&limit=2")
        let slashBase = try #require(URL(string: "https://dog.ceo/api/?key=1"))
        #expect(
            try TestTarget(baseURL: slashBase, path: "x?y=2").url().absoluteString
                == "https://dog.ceo/api/x?key=1&y=2")
        #expect(
            try TestTarget(baseURL: base, path: "breed/shiba inu").url().absoluteString
                == "https://dog.ceo/api/breed/shiba%20inu")
    }

    @Test(
        "percent-encodes a query written in the path, keeping escapes it already has",
        arguments: [
            ("x?q=a b", "q=a%20b"), ("x?q=ü", "q=%C3%BC"), ("x?q=a|b", "q=a%7Cb"),
            (#"x?q="x""#, "q=%22x%22"), ("x?q=%zz", "q=%25zz"), ("x?q=%41%e2", "q=%41%e2"),
            ("x?q=100%", "q=100%25"), ("x?a=1&b=c/d?e", "a=1&b=c/d?e"), ("x?q=#tag", "q=%23tag"),
        ])
    func encodesQueryInPath(path: String, query: String) throws {
        let url = try TestTarget(baseURL: base, path: path).url()
        #expect(url.absoluteString == "https://dog.ceo/api/x?\(query)")
    }

    @Test("percent-encodes the path, keeping escapes it already has")
    func encodesPath() throws {
        #expect(
            try TestTarget(baseURL: base, path: "files/a%2Fb/ü [1]").url().absoluteString
                == "https://dog.ceo/api/files/a%2Fb/%C3%BC%20%5B1%5D")
        let root = try #require(URL(string: "https://dog.ceo"))
        #expect(try TestTarget(baseURL: root, path: "").url().absoluteString == "https://dog.ceo/")
        #expect(try TestTarget(baseURL: base, path: "").url().absoluteString == "https://dog.ceo/api")
    }

    @Test("rejects a base URL without a scheme or host")
    func invalidURL() throws {
        let target = TestTarget(baseURL: try #require(URL(string: "just/a/path")), path: "x")
        #expect(throws: NetworkError.self) { try target.asRequest() }
    }

    @Test("sets method, headers, body, content type and timeout")
    func request() throws {
        var target = TestTarget(baseURL: base, path: "todos")
        target.method = .patch
        target.headers = ["Accept": "application/json"]
        target.task = .requestData(Data("raw".utf8), contentType: "text/plain")
        target.timeout = 7
        let request = try target.asRequest()
        #expect(request.httpMethod == "PATCH")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(request.httpBody == Data("raw".utf8))
        #expect(request.timeoutInterval == 7)
    }
}

@Suite("Retry policy")
struct RetryTests {
    @Test("retries a 503 and then succeeds, honouring Retry-After")
    func retriesThenSucceeds() async throws {
        let attempts = Counter()
        let server = try HTTPTestServer { _ in
            attempts.increment() == 1 ? .status(503, headers: [("Retry-After", "1")]) : .text("ok")
        }
        defer { server.stop() }
        let policy = RetryPolicy(baseDelay: 0.01)
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await NetworkProvider<TestTarget>(retryPolicy: policy).request(
            TestTarget(server, "flaky"))
        #expect(try response.mapString() == "ok")
        #expect(attempts.count == 2)
        #expect(
            clock.now - start >= .seconds(1), "waited as long as Retry-After asked, not the 10 ms backoff")
    }

    @Test("gives up after the maximum attempts and reports the last status")
    func givesUp() async throws {
        let attempts = Counter()
        let server = try HTTPTestServer { _ in
            _ = attempts.increment()
            return .status(502)
        }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(
            retryPolicy: RetryPolicy(maximumAttempts: 3, baseDelay: 0.01))
        let result = await Result { try await provider.request(TestTarget(server, "down")) }
        #expect(result.failure?.response?.statusCode == 502)
        #expect(attempts.count == 3)
    }

    @Test("never retries POST, nor a 429, as Alamofire")
    func doesNotRetry() async throws {
        let attempts = Counter()
        let server = try HTTPTestServer { request in
            _ = attempts.increment()
            return .status(request.method == "POST" ? 503 : 429)
        }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(retryPolicy: RetryPolicy(baseDelay: 0.01))
        var post = TestTarget(server, "create")
        post.method = .post
        _ = await Result { try await provider.request(post) }
        #expect(attempts.count == 1)
        _ = await Result { try await provider.request(TestTarget(server, "busy")) }
        #expect(attempts.count == 2)
    }

    @Test("backs off exponentially with bounded jitter, and reads HTTP-date Retry-After")
    func backoff() throws {
        let policy = RetryPolicy(maximumAttempts: 5, baseDelay: 0.5, jitter: 0.2)
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/x")))
        let failure = Result<Response, NetworkError>.failure(
            .transport(TransportFailure(kind: .connectionLost, message: "")))
        #expect(policy.delay(afterAttempt: 1, method: .get, outcome: failure, random: 0) == 0.5)
        #expect(policy.delay(afterAttempt: 2, method: .get, outcome: failure, random: 0) == 1.0)
        #expect(policy.delay(afterAttempt: 3, method: .get, outcome: failure, random: 1) == 2.4)
        #expect(policy.delay(afterAttempt: 5, method: .get, outcome: failure) == nil)
        #expect(policy.delay(afterAttempt: 1, method: .get, outcome: .failure(.cancelled)) == nil)
        // A whole second, as an HTTP date holds: the wait is then at most 3 s whatever the
        // formatter does with a fraction, and above 0 unless this test stalled for 3 s.
        let date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3).rounded(.down))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let response = Response(
            statusCode: 503, data: Data(), headers: ["Retry-After": formatter.string(from: date)],
            request: request)
        let wait = try #require(policy.delay(afterAttempt: 1, method: .get, outcome: .success(response)))
        #expect(wait > 0 && wait <= 3)
    }
}

@Suite("Retry-After")
struct RetryAfterTests {
    static func delay(retryAfter value: String) throws -> Double? {
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/x")))
        let response = Response(
            statusCode: 503, data: Data(), headers: ["Retry-After": value], request: request)
        return RetryPolicy(baseDelay: 0.01, jitter: 0).delay(
            afterAttempt: 1, method: .get, outcome: .success(response))
    }

    /// `date` written with `format` in English and GMT.
    static func httpDate(_ date: Date, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }

    @Test(
        "reads an HTTP date in all three formats of RFC 9110",
        arguments: [
            "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate
            "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // RFC 850
            "EEE MMM '_d' HH:mm:ss yyyy",  // asctime, the day padded with a space
        ])
    func dateFormats(format: String) throws {
        let date = Date().addingTimeInterval(5)
        let day =
            Calendar(identifier: .gregorian).dateComponents(
                in: TimeZone(identifier: "GMT") ?? .current, from: date
            )
            .day ?? 0
        let value = Self.httpDate(date, format).replacingOccurrences(
            of: "_d", with: day < 10 ? " \(day)" : "\(day)")
        let wait = try #require(try Self.delay(retryAfter: value), "\(value) was not read")
        #expect(wait > 3 && wait <= 5, "\(value)")
    }

    @Test("reads seconds; a past date is no wait; the wait is capped by maximumDelay")
    func seconds() throws {
        #expect(try Self.delay(retryAfter: "2") == 2)
        #expect(try Self.delay(retryAfter: " 1.5 ") == 1.5)
        #expect(try Self.delay(retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT") == 0)
        #expect(try Self.delay(retryAfter: "Sunday, 06-Nov-94 08:49:37 GMT") == 0)
        #expect(try Self.delay(retryAfter: "Sun Nov  6 08:49:37 1994") == 0)
        #expect(try Self.delay(retryAfter: "86400") == 30)
    }

    @Test(
        "ignores a value that is neither, and backs off instead",
        arguments: [
            "-5", "inf", "nan", "soon", "", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
        ])
    func invalid(value: String) throws {
        #expect(try Self.delay(retryAfter: value) == 0.01)
    }
}

@Suite("Stubbing")
struct StubTests {
    @Test("answers at once from the sample, without a network")
    func immediate() async throws {
        let provider = NetworkProvider<TestTarget>(stubBehavior: { _ in .immediate })
        let target = TestTarget(baseURL: try #require(URL(string: "http://127.0.0.1:9")), path: "x").with(
            sample: "hi")
        #expect(try await provider.request(target).mapString() == "hi")
    }

    @Test("answers after a delay, with a custom status validated as usual")
    func delayedCustomStatus() async throws {
        let provider = NetworkProvider<TestTarget>(
            stubBehavior: { _ in .delayed(seconds: 0.1) },
            sampleResponse: { _ in .networkResponse(404, Data()) })
        let clock = ContinuousClock()
        let start = clock.now
        let target = TestTarget(baseURL: try #require(URL(string: "http://127.0.0.1:9")), path: "x")
        let result = await Result { try await provider.request(target) }
        #expect(result.failure?.response?.statusCode == 404)
        #expect(clock.now - start >= .milliseconds(100))
    }

    @Test("fails with a stubbed error")
    func stubbedError() async throws {
        let provider = NetworkProvider<TestTarget>(
            retryPolicy: .never, stubBehavior: { _ in .immediate },
            sampleResponse: { _ in .networkError(.timeout(seconds: 1)) })
        let target = TestTarget(baseURL: try #require(URL(string: "http://127.0.0.1:9")), path: "x")
        let result = await Result { try await provider.request(target) }
        guard case .timeout = result.failure else {
            Issue.record("expected the stubbed timeout, got \(result)")
            return
        }
    }
}

/// Captures log messages.
final class LogCapture: LogHandler, @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { lines.append(event.message.description) }
    }

    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

@Suite("Plugins")
struct PluginTests {
    @Test(
        "the logger never logs Authorization, cookies, x-api-key or a target's sensitive headers, in any case"
    )
    func redaction() async throws {
        let server = try HTTPTestServer { _ in
            HTTPTestReply(
                status: 200, headers: [("Set-Cookie", "session=s3cr3t"), ("X-Plain", "visible")],
                body: Data("{}".utf8))
        }
        defer { server.stop() }
        let capture = LogCapture()
        let logger = Logger(label: "test") { _ in capture }
        var target = TestTarget(server, "private")
        target.headers = [
            "Authorization": "Bearer t0ken", "x-API-key": "k3y", "Cookie": "c00kie", "X-Trace": "trace-1",
            "X-Secret": "s3cret-header",
        ]
        target.sensitiveHeaders = ["x-secret"]
        _ = try await NetworkProvider<TestTarget>(plugins: [
            NetworkLoggerPlugin(logger: logger, options: .verbose)
        ])
        .request(target)
        let log = capture.text
        for secret in ["t0ken", "k3y", "c00kie", "s3cr3t", "s3cret-header"] {
            #expect(!log.contains(secret), "\(secret) leaked into the log")
        }
        #expect(log.contains("<redacted>"))
        #expect(log.contains("trace-1"))
        #expect(log.contains("visible"))
        #expect(log.contains("→ GET"))
        #expect(log.contains("← 200"))
    }

    @Test("the access-token plugin authorizes only targets that ask for it")
    func accessToken() async throws {
        let server = try HTTPTestServer { request in .text(request.header("Authorization") ?? "none") }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(plugins: [AccessTokenPlugin { _ in "abc" }])
        var bearer = TestTarget(server, "me")
        bearer.authorizationType = .bearer
        #expect(try await provider.request(bearer).mapString() == "Bearer abc")
        var custom = TestTarget(server, "me")
        custom.authorizationType = .custom("Token")
        #expect(try await provider.request(custom).mapString() == "Token abc")
        #expect(try await provider.request(TestTarget(server, "public")).mapString() == "none")
    }

    @Test("prepare and process run in plugin order; willSend and didReceive once per attempt")
    func order() async throws {
        struct Recording: PluginType {
            let name: String
            let box: LogBox

            func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
                box.log.withLock { $0.append("prepare \(name)") }
                var request = request
                request.setValue(
                    (request.value(forHTTPHeaderField: "X-Chain") ?? "") + name, forHTTPHeaderField: "X-Chain"
                )
                return request
            }
            func willSend(_ request: URLRequest, target: any TargetType) {
                box.log.withLock { $0.append("willSend \(name)") }
            }
            func didReceive(_ result: Result<Response, NetworkError>, target: any TargetType) {
                box.log.withLock { $0.append("didReceive \(name)") }
            }
            func process(_ result: Result<Response, NetworkError>, target: any TargetType) -> Result<
                Response, NetworkError
            > {
                box.log.withLock { $0.append("process \(name)") }
                return result
            }
        }
        let server = try HTTPTestServer { request in .text(request.header("X-Chain") ?? "") }
        defer { server.stop() }
        let logBox = LogBox()
        let response = try await NetworkProvider<TestTarget>(
            plugins: [Recording(name: "A", box: logBox), Recording(name: "B", box: logBox)]
        ).request(TestTarget(server, "x"))
        #expect(try response.mapString() == "AB")
        #expect(
            logBox.log.withLock { $0 } == [
                "prepare A", "prepare B", "willSend A", "willSend B", "didReceive A", "didReceive B",
                "process A", "process B",
            ])
    }
}

/// Lets a test share one Mutex between plugin values.
final class LogBox: Sendable {
    let log = Mutex<[String]>([])
}

extension TestTarget {
    func with(sample: String) -> TestTarget {
        var copy = self
        copy.sampleData = Data(sample.utf8)
        return copy
    }
}
