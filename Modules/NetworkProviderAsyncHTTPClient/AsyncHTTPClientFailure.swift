import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NetworkProvider

#if canImport(Glibc)
    import Glibc
#endif

/// AsyncHTTPClient's and SwiftNIO's errors in the ``NetworkProvider/TransportFailure/Kind``
/// every transport uses for the same cause.
enum AsyncHTTPClientFailure {
    static func map(_ error: any Error, timeout: TimeInterval) -> NetworkError {
        let message = String(describing: error)
        func failure(_ kind: TransportFailure.Kind) -> NetworkError {
            .transport(TransportFailure(kind: kind, message: message))
        }
        switch error {
        case is CancellationError:
            return .cancelled
        case let error as HTTPClientError:
            switch error {
            case .cancelled: return .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout:
                return .timeout(seconds: timeout)
            case .remoteConnectionClosed: return failure(.connectionLost)
            case .invalidURL, .emptyHost, .emptyScheme: return .invalidURL(message)
            default: return failure(.other)
            }
        case HTTPParserError.invalidEOFState:
            // The connection closed before the message's end: a body shorter than announced.
            return failure(.connectionLost)
        case is HTTPParserError, is NIOHTTPDecompression.DecompressionError:
            return failure(.invalidResponse)
        case let error as IOError:
            return failure(kind(ofErrno: error.errnoCode))
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return failure(.cannotFindHost)
            }
            let refused = error.connectionErrors.contains { attempt in
                (attempt.error as? IOError)?.errnoCode == ECONNREFUSED
            }
            return failure(refused ? .connectionRefused : .other)
        case let error as ChannelError:
            switch error {
            case .eof, .ioOnClosedChannel, .outputClosed, .inputClosed, .alreadyClosed:
                return failure(.connectionLost)
            case .connectTimeout: return .timeout(seconds: timeout)
            default: return failure(.other)
            }
        default:
            return failure(.other)
        }
    }

    private static func kind(ofErrno code: Int32) -> TransportFailure.Kind {
        switch code {
        case ECONNREFUSED: .connectionRefused
        case ECONNRESET, EPIPE, ECONNABORTED: .connectionLost
        default: .other
        }
    }
}
