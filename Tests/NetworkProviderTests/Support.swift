import Foundation
import HTTPTestServer
import NetworkProvider
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A target whose every property the test sets.
struct TestTarget: TargetType, AccessTokenAuthorizable {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var task: RequestTask = .requestPlain
    var headers: [String: String]?
    var validationType: ValidationType = .successCodes
    var sampleData = Data()
    var timeout: TimeInterval?
    var authorizationType: AuthorizationType?

    init(_ server: HTTPTestServer, _ path: String) {
        self.baseURL = server.url("/api")
        self.path = path
    }

    init(baseURL: URL, path: String) {
        self.baseURL = baseURL
        self.path = path
    }
}

/// The transports every conformance test runs against.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case curl

    var transport: any Transport {
        switch self {
        case .urlSession: URLSessionTransport.shared
        case .curl: CurlTransport.shared
        }
    }

    var testDescription: String { rawValue }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
    var count: Int { value.withLock { $0 } }
}

/// A port on 127.0.0.1 where nothing listens: a server started and stopped.
func closedPort() throws -> URL {
    let server = try HTTPTestServer { _ in .status(200) }
    let url = server.url("/api")
    server.stop()
    return url
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
