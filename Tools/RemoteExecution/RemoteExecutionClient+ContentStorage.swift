import Foundation
import Synchronization

/// The content-addressable storage: what the server holds, and uploads and downloads of blobs,
/// batched or streamed.
extension RemoteExecutionClient {
    /// The digests among `digests` the server does not hold, asked in batches of
    /// ``findMissingBatch``.
    public func findMissing(_ digests: some Collection<BlobDigest>) async throws(RemoteExecutionError) -> Set<
        BlobDigest
    > {
        let unique = Array(Set(digests)).sorted()
        var missing: Set<BlobDigest> = []
        for start in stride(from: 0, to: unique.count, by: findMissingBatch) {
            var request = Build_Bazel_Remote_Execution_V2_FindMissingBlobsRequest()
            request.instanceName = instanceName
            request.blobDigests = unique[start..<min(start + findMissingBatch, unique.count)].map(\.message)
            let response = try await perform("FindMissingBlobs") { () async throws(GRPCCallFailure) in
                try await connection.unary(
                    Self.path("ContentAddressableStorage", "FindMissingBlobs"), request,
                    as: Build_Bazel_Remote_Execution_V2_FindMissingBlobsResponse.self, timeout: callTimeout)
            }
            missing.formUnion(response.missingBlobDigests.map(BlobDigest.init))
        }
        return missing
    }

    /// Uploads those of `blobs` the server lacks; returns how many it uploaded. Blobs up to
    /// ``batchBytes`` go in BatchUpdateBlobs requests, larger ones one by one through
    /// ByteStream.Write. Each blob is checked against its digest first: a wrong key is the
    /// caller's bug, reported as ``RemoteExecutionError/badDigest(expected:actual:)``, never
    /// stored.
    @discardableResult
    public func upload(_ blobs: [BlobDigest: Data]) async throws(RemoteExecutionError) -> Int {
        try await upload(blobs.mapValues { BlobSource.bytes($0) })
    }

    /// Uploads those of `blobs` the server lacks, reading each file only if it must be sent;
    /// returns how many it uploaded. Bytes in memory are checked against their digest first
    /// (``RemoteExecutionError/badDigest(expected:actual:)``); a file is not hashed again, since
    /// its digest was taken when the tree was made: one that is no longer its digest's size is
    /// ``RemoteExecutionError/unreadableUpload(_:)``, and the server checks every blob it stores.
    /// A large file streams through ByteStream.Write a chunk at a time.
    @discardableResult
    public func upload(_ blobs: [BlobDigest: BlobSource]) async throws(RemoteExecutionError) -> Int {
        for (digest, source) in blobs {
            guard case .bytes(let data) = source else { continue }
            let actual = BlobDigest(of: data)
            guard actual == digest else { throw .badDigest(expected: digest, actual: actual) }
        }
        let missing = try await findMissing(blobs.keys).sorted()
        // A blob too big for a batch request goes alone through ByteStream.Write, in chunks.
        let (large, small) = missing.reduce(into: ([BlobDigest](), [BlobDigest]())) { split, digest in
            if digest.size > Int64(batchBytes) { split.0.append(digest) } else { split.1.append(digest) }
        }
        for batch in batches(
            of: small.compactMap { digest in blobs[digest].map { (digest: digest, payload: $0) } })
        {
            var loaded: [(BlobDigest, Data)] = []
            for (digest, source) in batch {
                switch source {
                case .bytes(let data): loaded.append((digest, data))
                case .file(let path):
                    let data = try await BlobFile.withFile(path) { file async throws(RemoteExecutionError) in
                        try await file.readAll(digest.size)
                    }
                    loaded.append((digest, data))
                }
            }
            try await uploadBatch(loaded)
        }
        for digest in large {
            if let source = blobs[digest] { try await write(source, as: digest) }
        }
        return missing.count
    }

    /// Uploads one blob through ByteStream.Write, in chunks of ``byteStreamChunk`` bytes read
    /// from its source as the stream takes them.
    private func write(_ source: BlobSource, as digest: BlobDigest) async throws(RemoteExecutionError) {
        // The upload's own name: a fresh identifier, then the blob it must become.
        let resource = Self.resourceName(
            instanceName, "uploads/\(UUID().uuidString.lowercased())/blobs/\(digest.hash)/\(digest.size)")
        // The deadline grows with the blob: a second a MiB on top of a call's.
        let timeout = callTimeout.map { $0 + .seconds(digest.size >> 20) }
        let response: Google_Bytestream_WriteResponse
        do {
            response = try await stream(source, to: resource, as: digest, timeout: timeout)
        } catch {
            // A server may end a Write early when another client has just stored the same blob
            // (REAPI allows it), which breaks the stream under the chunks still being sent: the
            // blob being there now is the upload's success.
            switch error {
            case .connectionLost, .rejected:
                if let missing = try? await findMissing([digest]), missing.isEmpty { return }
            default: break
            }
            throw error
        }
        // The full size, or -1, which REAPI allows for a blob another client completed.
        guard response.committedSize == digest.size || response.committedSize == -1 else {
            throw .rejected(
                call: "ByteStream.Write", code: "invalidResponse",
                message: "\(digest): the server committed \(response.committedSize) of \(digest.size) bytes")
        }
    }

    /// ByteStream.Write of `source` as `resource`, a chunk at a time.
    private func stream(_ source: BlobSource, to resource: String, as digest: BlobDigest, timeout: Duration?)
        async throws(RemoteExecutionError) -> Google_Bytestream_WriteResponse
    {
        let response: Google_Bytestream_WriteResponse
        switch source {
        case .bytes(let data):
            response = try await write(resource, digest: digest, timeout: timeout) {
                offset, count async throws(RemoteExecutionError) in
                data.subdata(in: data.startIndex + Int(offset)..<data.startIndex + Int(offset) + count)
            }
        case .file(let path):
            response = try await BlobFile.withFile(path) { file async throws(RemoteExecutionError) in
                try await write(resource, digest: digest, timeout: timeout) {
                    offset, count async throws(RemoteExecutionError) in
                    let chunk = try await file.read(at: offset, count: count)
                    guard chunk.count == count else { throw BlobFile.changed(path, expected: digest.size) }
                    return chunk
                }
            }
        }
        return response
    }

    /// ByteStream.Write of `resource`, whose chunks `chunk(offset, count)` gives one at a time.
    private func write(
        _ resource: String, digest: BlobDigest, timeout: Duration?,
        chunk: @escaping @Sendable (Int64, Int) async throws(RemoteExecutionError) -> Data
    ) async throws(RemoteExecutionError) -> Google_Bytestream_WriteResponse {
        let progress = WriteProgress()
        return try await perform("ByteStream.Write") { () async throws(GRPCCallFailure) in
            try await connection.clientStreaming(
                "/google.bytestream.ByteStream/Write",
                next: { () async throws -> Google_Bytestream_WriteRequest? in
                    guard let offset = progress.claim(Self.byteStreamChunk, of: digest.size) else {
                        return nil
                    }
                    var request = Google_Bytestream_WriteRequest()
                    // Only the first request must name the resource.
                    if offset == 0 { request.resourceName = resource }
                    request.writeOffset = offset
                    let count = Int(min(Int64(Self.byteStreamChunk), digest.size - offset))
                    request.data = try await chunk(offset, count)
                    request.finishWrite = offset + Int64(count) == digest.size
                    return request
                }, as: Google_Bytestream_WriteResponse.self, timeout: timeout)
        }
    }

    /// Reads one blob through ByteStream.Read and checks it against its digest.
    private func readStream(_ digest: BlobDigest) async throws(RemoteExecutionError) -> Data {
        var request = Google_Bytestream_ReadRequest()
        request.resourceName = Self.resourceName(instanceName, "blobs/\(digest.hash)/\(digest.size)")
        let chunks: [Google_Bytestream_ReadResponse]
        do throws(RemoteExecutionError) {
            chunks = try await perform("ByteStream.Read") { () async throws(GRPCCallFailure) in
                try await connection.serverStreaming(
                    "/google.bytestream.ByteStream/Read", request, as: Google_Bytestream_ReadResponse.self,
                    timeout: callTimeout)
            }
        } catch .rejected(_, "notFound", _) {
            throw .missingBlobs([digest])
        }
        let data = chunks.reduce(into: Data()) { $0.append($1.data) }
        let actual = BlobDigest(of: data)
        guard actual == digest else { throw .badDigest(expected: digest, actual: actual) }
        return data
    }

    /// A ByteStream resource name: `path` under the instance, when there is one.
    private static func resourceName(_ instanceName: String, _ path: String) -> String {
        instanceName.isEmpty ? path : "\(instanceName)/\(path)"
    }

    /// A batch entry's bytes beyond the blob's: the digest (64 hex digits, a size) and the
    /// fields' tags and lengths, rounded up.
    static let batchEntryOverhead: Int64 = 100

    /// The bytes of one ByteStream message: well under gRPC's usual 4 MiB message limit.
    static let byteStreamChunk = 1_024 * 1_024

    /// One BatchUpdateBlobs request of `blobs`.
    private func uploadBatch(_ blobs: [(BlobDigest, Data)]) async throws(RemoteExecutionError) {
        var request = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest()
        request.instanceName = instanceName
        request.requests = blobs.map { digest, data in
            var entry = Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsRequest.Request()
            entry.digest = digest.message
            entry.data = data
            return entry
        }
        let response = try await perform("BatchUpdateBlobs") { () async throws(GRPCCallFailure) in
            try await connection.unary(
                Self.path("ContentAddressableStorage", "BatchUpdateBlobs"), request,
                as: Build_Bazel_Remote_Execution_V2_BatchUpdateBlobsResponse.self, timeout: callTimeout)
        }
        if let failed = response.responses.first(where: { $0.status.code != 0 }) {
            throw .rejected(
                call: "BatchUpdateBlobs", code: GRPCStatus.name(of: failed.status.code),
                message: "\(BlobDigest(failed.digest)): \(failed.status.message)")
        }
    }

    /// Reads `digests` from the server, in batches of at most ``batchBytes`` (a larger blob
    /// through ByteStream.Read), checking each blob's bytes against its digest.
    public func read(_ digests: some Collection<BlobDigest>) async throws(RemoteExecutionError)
        -> [BlobDigest: Data]
    {
        let unique = Array(Set(digests)).sorted()
        var blobs: [BlobDigest: Data] = [:]
        // A blob too big for a batch comes alone through ByteStream.Read.
        for digest in unique where digest.size > Int64(batchBytes) {
            blobs[digest] = try await readStream(digest)
        }
        let small = unique.filter { $0.size <= Int64(batchBytes) }
        for batch in batches(of: small.map { (digest: $0, payload: ()) }) {
            var request = Build_Bazel_Remote_Execution_V2_BatchReadBlobsRequest()
            request.instanceName = instanceName
            request.digests = batch.map(\.digest.message)
            let response = try await perform("BatchReadBlobs") { () async throws(GRPCCallFailure) in
                try await connection.unary(
                    Self.path("ContentAddressableStorage", "BatchReadBlobs"), request,
                    as: Build_Bazel_Remote_Execution_V2_BatchReadBlobsResponse.self, timeout: callTimeout)
            }
            var absent: [BlobDigest] = []
            for entry in response.responses {
                let expected = BlobDigest(entry.digest)
                if entry.status.code == 5 {  // NOT_FOUND
                    absent.append(expected)
                    continue
                }
                guard entry.status.code == 0 else {
                    throw .rejected(
                        call: "BatchReadBlobs", code: GRPCStatus.name(of: entry.status.code),
                        message: "\(expected): \(entry.status.message)")
                }
                let actual = BlobDigest(of: entry.data)
                guard actual == expected else { throw .badDigest(expected: expected, actual: actual) }
                blobs[expected] = entry.data
            }
            guard absent.isEmpty else { throw .missingBlobs(absent.sorted()) }
        }
        let unanswered = unique.filter { blobs[$0] == nil }
        guard unanswered.isEmpty else { throw .missingBlobs(unanswered) }
        return blobs
    }

    /// Splits `items` into runs whose entries add up to at most ``batchBytes`` (a bigger item
    /// alone in its run).
    private func batches<Payload>(of items: [(digest: BlobDigest, payload: Payload)]) -> [[(
        digest: BlobDigest, payload: Payload
    )]] {
        var result: [[(digest: BlobDigest, payload: Payload)]] = []
        var current: [(digest: BlobDigest, payload: Payload)] = []
        var bytes: Int64 = 0
        for item in items {
            // Each entry carries its digest and protobuf framing besides its bytes: 60,000
            // blobs of 50 bytes would otherwise make a 5.5 MB request from a "3 MiB" batch.
            let entryBytes = item.digest.size + Self.batchEntryOverhead
            if current.isEmpty == false, bytes + entryBytes > Int64(batchBytes) {
                result.append(current)
                current = []
                bytes = 0
            }
            current.append(item)
            bytes += entryBytes
        }
        if current.isEmpty == false { result.append(current) }
        return result
    }
}

/// How far a ByteStream.Write has got: the offset of the next chunk to send.
private final class WriteProgress: Sendable {
    private let next = Mutex<Int64>(0)

    /// The offset of the next chunk of at most `chunk` bytes of a blob of `size`, moving past
    /// it; nil once the blob is all sent.
    func claim(_ chunk: Int, of size: Int64) -> Int64? {
        next.withLock { offset in
            guard offset < size else { return nil }
            defer { offset += Int64(chunk) }
            return offset
        }
    }
}
