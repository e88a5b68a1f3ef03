/// Where a REAPI server listens: `grpc://HOST:PORT` (plaintext HTTP/2) or `unix:PATH`.
public enum RemoteEndpoint: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unixSocket(path: String)

    /// Parses `grpc://HOST:PORT` or `unix:PATH`.
    public init(_ text: String) throws(RemoteExecutionError) {
        if text.hasPrefix("unix:"), text.count > 5 {
            self = .unixSocket(path: String(text.dropFirst(5)))
            return
        }
        guard text.hasPrefix("grpc://"), let colon = text.lastIndex(of: ":"),
            let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port)
        else { throw .invalidEndpoint(text) }
        let host = String(text[text.index(text.startIndex, offsetBy: 7)..<colon])
        guard host.isEmpty == false else { throw .invalidEndpoint(text) }
        self = .tcp(host: host, port: port)
    }

    /// The address as the command line writes it.
    public var description: String {
        switch self {
        case .tcp(let host, let port): "grpc://\(host):\(port)"
        case .unixSocket(let path): "unix:\(path)"
        }
    }
}
