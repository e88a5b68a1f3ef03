import Foundation
import HTTPTestServer
import NetworkProvider
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The headers of the last request that arrived, from the server's threads.
final class Arrivals: Sendable {
    let headers = Mutex<[(name: String, value: String)]>([])
}

/// Redirects are followed the same way on every transport (RFC 9110 §15.4).
@Suite("Redirect conformance")
struct RedirectConformanceTests {
    /// What the redirect's destination received.
    struct Arrival: Codable, Equatable {
        var method: String
        var body: String
        var contentLength: String?
        var contentType: String?
    }

    /// `/api/start?code=N` answers N with `Location: /api/end`; `/api/end` echoes the request.
    static func server() throws -> HTTPTestServer {
        try HTTPTestServer { request in
            if request.path == "/api/start" {
                return .redirect(to: "/api/end", status: Int(request.queryValue("code") ?? "") ?? 302)
            }
            let arrival = Arrival(
                method: request.method, body: String(decoding: request.body, as: UTF8.self),
                contentLength: request.header("Content-Length"), contentType: request.header("Content-Type"))
            return HTTPTestReply(status: 200, body: (try? JSONEncoder().encode(arrival)) ?? Data())
        }
    }

    static func send(
        _ method: HTTPMethod, code: Int, over kind: TransportKind, to server: HTTPTestServer
    ) async throws -> Arrival {
        var target = TestTarget(server, "start?code=\(code)")
        target.method = method
        target.task = .requestData(Data(#"{"title":"Walk the dog"}"#.utf8), contentType: "application/json")
        let response = try await NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never)
            .request(target)
        #expect(response.url?.path == "/api/end")
        return try response.map(Arrival.self)
    }

    @Test("307 and 308 repeat a POST with its body", arguments: TransportKind.allCases, [307, 308])
    func repeatsPost(kind: TransportKind, code: Int) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let arrival = try await Self.send(.post, code: code, over: kind, to: server)
        #expect(arrival.method == "POST")
        #expect(arrival.body == #"{"title":"Walk the dog"}"#)
        #expect(arrival.contentLength == "24")
        #expect(arrival.contentType == "application/json")
    }

    @Test(
        "301, 302 and 303 turn a POST into a GET without a body", arguments: TransportKind.allCases,
        [301, 302, 303])
    func postBecomesGet(kind: TransportKind, code: Int) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let arrival = try await Self.send(.post, code: code, over: kind, to: server)
        #expect(arrival.method == "GET")
        #expect(arrival.body == "")
        #expect(arrival.contentLength == nil || arrival.contentLength == "0")
        #expect(arrival.contentType == nil)
    }

    @Test(
        "301, 302, 307 and 308 repeat a PUT with its body; 303 makes it a GET",
        arguments: TransportKind.allCases)
    func put(kind: TransportKind) async throws {
        let server = try Self.server()
        defer { server.stop() }
        for code in [301, 302, 307, 308] {
            let arrival = try await Self.send(.put, code: code, over: kind, to: server)
            #expect(arrival.method == "PUT", "after \(code)")
            #expect(arrival.body == #"{"title":"Walk the dog"}"#, "after \(code)")
        }
        let seeOther = try await Self.send(.put, code: 303, over: kind, to: server)
        #expect(seeOther.method == "GET")
        #expect(seeOther.body == "")
    }

    /// The headers a request carries in the credential tests, and whether each is a secret.
    static let sentHeaders: [(name: String, value: String, secret: Bool)] = [
        ("Cookie", "session=c00kie", true), ("Proxy-Authorization", "Basic cHJveHk=", true),
        ("x-api-key", "k3y", true), ("X-Secret", "s3cret", true), ("X-Trace", "trace-1", false),
    ]

    /// Sends a request carrying every header of ``sentHeaders`` (and a bearer token) to
    /// `start`, and returns the headers the request that arrived at `/api/end` had.
    static func headersArriving(
        over kind: TransportKind, start: HTTPTestServer, arrivals: Arrivals
    ) async throws {
        var target = TestTarget(start, "start")
        target.headers = Dictionary(uniqueKeysWithValues: sentHeaders.map { ($0.name, $0.value) })
        target.sensitiveHeaders = ["x-secret"]
        target.authorizationType = .bearer
        let provider = NetworkProvider<TestTarget>(
            transport: kind.transport, plugins: [AccessTokenPlugin { _ in "t0ken" }], retryPolicy: .never)
        let response = try await provider.request(target)
        #expect(response.url?.path == "/api/end")
        #expect(!arrivals.headers.withLock { $0.isEmpty })
    }

    static func recordingServer(
        _ arrivals: Arrivals, redirectTo location: @escaping @Sendable () -> String
    ) throws -> HTTPTestServer {
        try HTTPTestServer { request in
            if request.path == "/api/start" { return .redirect(to: location(), status: 307) }
            arrivals.headers.withLock { $0 = request.headers }
            return .text("arrived")
        }
    }

    @Test(
        "a redirect to another origin drops credentials and sensitive headers",
        arguments: TransportKind.allCases)
    func crossOrigin(kind: TransportKind) async throws {
        let arrivals = Arrivals()
        let other = try Self.recordingServer(arrivals) { "/" }
        defer { other.stop() }
        let start = try Self.recordingServer(arrivals) { other.url("/api/end").absoluteString }
        defer { start.stop() }
        try await Self.headersArriving(over: kind, start: start, arrivals: arrivals)
        let received = arrivals.headers.withLock { $0 }
        func value(_ name: String) -> String? {
            received.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        #expect(value("Authorization") == nil, "the bearer token went to another origin")
        for header in Self.sentHeaders {
            #expect((value(header.name) != nil) == !header.secret, "\(header.name) at the other origin")
        }
    }

    @Test("a redirect within the origin keeps every header", arguments: TransportKind.allCases)
    func sameOrigin(kind: TransportKind) async throws {
        let arrivals = Arrivals()
        let start = try Self.recordingServer(arrivals) { "/api/end" }
        defer { start.stop() }
        try await Self.headersArriving(over: kind, start: start, arrivals: arrivals)
        let received = arrivals.headers.withLock { $0 }
        func value(_ name: String) -> String? {
            received.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        #expect(value("Authorization") == "Bearer t0ken")
        for header in Self.sentHeaders { #expect(value(header.name) == header.value, "\(header.name)") }
    }

    @Test("stops after 10 redirects in a row with a typed error", arguments: TransportKind.allCases)
    func redirectLoop(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            let hop = Int(request.queryValue("n") ?? "0") ?? 0
            return .redirect(to: "/api/loop?n=\(hop + 1)", status: 302)
        }
        defer { server.stop() }
        let result = await Result {
            try await NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never).request(
                TestTarget(server, "loop"))
        }
        guard case .transport(let failure) = result.failure else {
            Issue.record("expected a transport failure, got \(result)")
            return
        }
        #expect(failure.kind == .tooManyRedirects)
        #expect(server.requestCount == 11)
    }

    @Test(
        "a Location with spaces or non-ASCII is followed, one that is not http(s) is refused",
        arguments: TransportKind.allCases)
    func locations(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            switch request.path {
            case "/api/spaces": .redirect(to: "/api/a b/ü?q=a b")
            case "/api/file": .redirect(to: "file:///etc/passwd")
            default: .text("\(request.path)?\(request.rawQuery ?? "")")
            }
        }
        defer { server.stop() }
        let provider = NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never)
        #expect(try await provider.request(TestTarget(server, "spaces")).mapString() == "/api/a b/ü?q=a%20b")
        let refused = await Result { try await provider.request(TestTarget(server, "file")) }
        guard case .transport(let failure) = refused.failure else {
            Issue.record("expected a transport failure, got \(refused)")
            return
        }
        #expect(failure.kind == .invalidResponse)
    }

    @Test("a 3xx without Location, and 304, are responses", arguments: TransportKind.allCases)
    func notRedirects(kind: TransportKind) async throws {
        let server = try HTTPTestServer { request in
            request.path == "/api/none" ? .status(302) : .status(304)
        }
        defer { server.stop() }
        var target = TestTarget(server, "none")
        target.validationType = .none
        let provider = NetworkProvider<TestTarget>(transport: kind.transport, retryPolicy: .never)
        #expect(try await provider.request(target).statusCode == 302)
        target.path = "unchanged"
        #expect(try await provider.request(target).statusCode == 304)
    }
}
