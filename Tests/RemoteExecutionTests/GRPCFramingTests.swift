import Foundation
import NIOCore
import NIOHPACK
import Testing

@testable import RemoteExecution

/// gRPC's framing and trailers, byte by byte: what the client reads off a stream, however the
/// server cut it into DATA frames.
@Suite("gRPC framing")
struct GRPCFramingTests {
    /// `messages` framed as gRPC sends them: flag byte, 4-byte big-endian length, bytes.
    static func framed(_ messages: [[UInt8]], compressed: Bool = false) -> [UInt8] {
        messages.flatMap { message in
            [compressed ? 1 : 0] + withUnsafeBytes(of: UInt32(message.count).bigEndian, Array.init) + message
        }
    }

    static func reader(fedInPiecesOf size: Int, _ bytes: [UInt8], maximum: Int = 1_000) throws -> (
        messages: [[UInt8]], rest: Bool
    ) {
        var reader = GRPCMessageReader(maximumMessageBytes: maximum)
        var messages: [[UInt8]] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            reader.append(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
            while let message = try reader.next() { messages.append(Array(message.readableBytesView)) }
        }
        return (messages, !reader.isEmpty)
    }

    @Test("messages come out whole however the frames cut them", arguments: [1, 2, 3, 5, 7, 64, 10_000])
    func anyCut(pieceSize: Int) throws {
        let messages: [[UInt8]] = [[], [1], Array(repeating: 9, count: 300), [4, 5, 6]]
        let read = try Self.reader(fedInPiecesOf: pieceSize, Self.framed(messages))
        #expect(read.messages == messages)
        #expect(read.rest == false)
    }

    @Test("a message cut short is still waiting, not read")
    func cutShort() throws {
        let bytes = Self.framed([[1, 2, 3, 4]])
        let read = try Self.reader(fedInPiecesOf: 100, Array(bytes.dropLast()))
        #expect(read.messages.isEmpty)
        #expect(read.rest)
    }

    @Test("a compressed message, never asked for, is the server's protocol error")
    func compressed() {
        #expect(throws: GRPCCallFailure.protocolViolation("a compressed message, which was not asked for")) {
            _ = try Self.reader(fedInPiecesOf: 100, Self.framed([[1]], compressed: true))
        }
    }

    @Test("a length over the limit is refused when the length arrives, not buffered")
    func overTheLimit() throws {
        // Only the five bytes of the frame's start: the 2,000 bytes it announces never come.
        let start = Array(Self.framed([Array(repeating: 0, count: 2_000)]).prefix(5))
        #expect(throws: GRPCCallFailure.protocolViolation("a message of 2000 bytes, over the 1000 accepted"))
        {
            _ = try Self.reader(fedInPiecesOf: 5, start)
        }
        let atTheLimit = try Self.reader(fedInPiecesOf: 100, Self.framed([Array(repeating: 1, count: 1_000)]))
        #expect(atTheLimit.messages.first?.count == 1_000)
    }

    @Test("trailers: the status and its percent-encoded message; none is unknown")
    func trailers() {
        let failed = GRPCStatus(trailers: [
            "grpc-status": "5", "grpc-message": "no%20such%20blob%3A%20%C3%A9",
        ])
        #expect(failed == GRPCStatus(code: 5, message: "no such blob: é"))
        #expect(throws: GRPCCallFailure.status(failed)) { try failed.check() }
        #expect("\(failed)" == "notFound: no such blob: é")
        #expect(GRPCStatus(trailers: [:]).code == 2)
        #expect(throws: Never.self) { try GRPCStatus(trailers: ["grpc-status": "0"]).check() }
    }

    @Test("response headers: HTTP statuses read as the gRPC specification maps them; only gRPC content")
    func responseHeaders() {
        func failure(_ headers: HPACKHeaders) -> GRPCCallFailure? {
            do {
                try GRPCConnection.checkResponseHeaders(headers, method: "/s/M")
                return nil
            } catch {
                return error
            }
        }
        #expect(failure([":status": "200", "content-type": "application/grpc"]) == nil)
        #expect(failure([":status": "200", "content-type": "application/grpc+proto"]) == nil)
        for (status, code) in [
            ("503", 14), ("502", 14), ("504", 14), ("429", 14), ("404", 12), ("401", 16), ("500", 2),
        ] {
            #expect(
                failure([":status": status, "content-type": "text/html"])
                    == .status(GRPCStatus(code: Int32(code), message: "HTTP status \(status) for /s/M")))
        }
        #expect(
            failure([":status": "200", "content-type": "text/html"])
                == .protocolViolation("/s/M answered content-type 'text/html', not gRPC"))
    }

    @Test("grpc-timeout keeps to eight digits and a unit")
    func timeoutHeader() {
        #expect(GRPCTimeout.headerValue(.milliseconds(1_500)) == "1500m")
        #expect(GRPCTimeout.headerValue(.seconds(60)) == "60000m")
        #expect(GRPCTimeout.headerValue(.seconds(200_000)) == "200000S")
        #expect(GRPCTimeout.headerValue(.seconds(200_000_000)) == "55555H")
        #expect(GRPCTimeout.headerValue(.zero) == "0m")
    }
}
