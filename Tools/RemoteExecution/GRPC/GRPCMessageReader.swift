import NIOCore

/// Cuts a call's response bytes into gRPC messages: each is a flag byte (1 when compressed),
/// a 4-byte big-endian length, and that many bytes, in as many DATA frames as the server chose.
struct GRPCMessageReader {
    private var buffer = ByteBuffer()
    /// The longest message accepted; a longer one is refused as soon as its length is read.
    let maximumMessageBytes: Int

    init(maximumMessageBytes: Int) {
        self.maximumMessageBytes = maximumMessageBytes
    }

    /// Whether no part of a message is waiting for the rest of it.
    var isEmpty: Bool { buffer.readableBytes == 0 }

    mutating func append(_ bytes: ByteBuffer) {
        var bytes = bytes
        buffer.writeBuffer(&bytes)
    }

    /// The next whole message, or nil until one has arrived.
    mutating func next() throws(GRPCCallFailure) -> ByteBuffer? {
        guard let compressed = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
            let length = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt32.self)
        else { return nil }
        guard Int(length) <= maximumMessageBytes else {
            throw .protocolViolation("a message of \(length) bytes, over the \(maximumMessageBytes) accepted")
        }
        guard buffer.readableBytes >= 5 + Int(length) else { return nil }
        // No `grpc-encoding` is asked for, so a server may not compress.
        guard compressed == 0 else {
            throw .protocolViolation("a compressed message, which was not asked for")
        }
        buffer.moveReaderIndex(forwardBy: 5)
        let message = buffer.readSlice(length: Int(length))
        buffer.discardReadBytes()
        return message
    }
}
