import Foundation
import HTTPTestServer
import NetworkProvider
import NetworkProviderAsyncHTTPClient
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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
    var sensitiveHeaders: Set<String> = []

    init(_ server: HTTPTestServer, _ path: String) {
        self.baseURL = server.url("/api")
        self.path = path
    }

    init(baseURL: URL, path: String) {
        self.baseURL = baseURL
        self.path = path
    }

    /// A changed copy.
    func with(_ change: (inout TestTarget) -> Void) -> TestTarget {
        var copy = self
        change(&copy)
        return copy
    }
}

/// The transports every conformance test runs against.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case curl
    case asyncHTTPClient

    var transport: any Transport {
        switch self {
        case .urlSession: URLSessionTransport.shared
        case .curl: CurlTransport.shared
        case .asyncHTTPClient: AsyncHTTPClientTransport.shared
        }
    }

    /// A transport of this kind that accepts bodies of at most ``Limited/size`` bytes. Kept for
    /// the whole run: a URLSession must not be torn down on Linux.
    var limited: any Transport {
        switch self {
        case .urlSession: Limited.urlSession
        case .curl: Limited.curl
        case .asyncHTTPClient: Limited.asyncHTTPClient
        }
    }

    var testDescription: String { rawValue }
}

/// The transports with a small size limit.
enum Limited {
    static let size = 1_000_000
    static let urlSession = URLSessionTransport(maximumResponseSize: size)
    static let curl = CurlTransport(maximumResponseSize: size)
    static let asyncHTTPClient = AsyncHTTPClientTransport(maximumResponseSize: size)
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
    try ClosedPort.shared.get().url
}

/// A loopback port that refuses connections for the whole test run: a TCP socket bound to it
/// that never listens. Holding the port (instead of closing a server's) keeps tests running in
/// parallel from being given it for their own servers.
final class ClosedPort: Sendable {
    static let shared = Result<ClosedPort, any Error> { try ClosedPort() }

    let url: URL
    private let socket: Int32

    private init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard socket >= 0, bound,
            let url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/api")
        else { throw POSIXError(.EADDRNOTAVAIL) }
        self.url = url
    }

    deinit { close(socket) }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
