import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NetworkProvider

/// Collects a whole response on the request's event loop, for
/// ``AsyncHTTPClientTransport/send(_:)``.
///
/// Everything happens on NIO's thread, as it does on curl's for `CurlTransport`: the deadline
/// (AsyncHTTPClient's, which for this API covers the body too) and the size limit are decided
/// there, so a cooperative thread pool kept busy by other work cannot turn a response that
/// arrived in time into a timeout. Only handing the finished response back needs the pool.
final class BodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    // @unchecked: AsyncHTTPClient calls a delegate on the request's event loop, one call at a
    // time, and the fields below are touched only from those calls.

    typealias Response = TransportResponse

    /// Thrown from a callback when the body passes the limit; it fails the request.
    struct TooLarge: Error {}

    private let limit: Int
    private let url: URL?
    private var head: HTTPResponseHead?
    private var body = Data()

    init(limit: Int, url: URL?) {
        self.limit = limit
        self.url = url
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        // An announced length over the limit fails before the body is read. It is the encoded
        // length; the decoded body is counted as it arrives.
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limit {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        self.head = head
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.count + buffer.readableBytes <= limit else {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        body.append(contentsOf: buffer.readableBytesView)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return TransportResponse(
            statusCode: Int(head.status.code), headers: AsyncHTTPClientTransport.headers(head.headers),
            body: body,
            url: url)
    }
}
