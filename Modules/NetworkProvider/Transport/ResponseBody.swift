import Foundation
import Synchronization

/// The body of a streamed response: its bytes in chunks, as they arrive.
///
/// ```swift
/// let photo = try await provider.bytes(.photo(id))
/// for try await chunk in photo.body { try file.write(contentsOf: chunk) }
/// ```
///
/// Read it once, from one task. A transport fills it through a ``Source`` and pauses while the
/// reader is more than a buffer behind, so a slow reader does not make the body pile up in
/// memory. Cancelling the reading task, or dropping the body before its end, stops the
/// transfer.
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data
    /// Why the body ended early.
    public typealias Failure = NetworkError

    private let reader: Reader

    /// A body and the source a transport fills it through.
    ///
    /// - Parameters:
    ///   - bufferSize: How many bytes may wait for the reader before ``Source/yield(_:)`` asks
    ///     the transport to pause.
    ///   - onDemand: Called, on the reader's task, when a paused transport may go on.
    ///   - onTermination: Called once when the reader stops early (its task was cancelled, or
    ///     the body was dropped before its end): stop the transfer.
    public static func makeStream(
        bufferSize: Int = 1 << 20, onDemand: @escaping @Sendable () -> Void = {},
        onTermination: @escaping @Sendable () -> Void
    ) -> (body: ResponseBody, source: Source) {
        let channel = ChunkChannel(bufferSize: bufferSize, onDemand: onDemand, onTermination: onTermination)
        return (ResponseBody(reader: Reader(channel: channel)), Source(channel: channel))
    }

    /// A body that is already complete.
    public init(_ data: Data) {
        let (body, source) = Self.makeStream(onTermination: {})
        if !data.isEmpty { _ = source.yield(data) }
        source.finish()
        self = body
    }

    private init(reader: Reader) {
        self.reader = reader
    }

    /// Reads the chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader)
    }

    /// The rest of the body in memory.
    ///
    /// - Throws: ``NetworkError/responseTooLarge(limit:)`` past `limit` bytes, or why the body
    ///   ended early.
    public func collect(upTo limit: Int = .max) async throws(NetworkError) -> Data {
        var data = Data()
        var iterator = makeAsyncIterator()
        while let chunk = try await iterator.next() {
            guard data.count + chunk.count <= limit else {
                reader.channel.cancel()
                throw .responseTooLarge(limit: limit)
            }
            data.append(chunk)
        }
        return data
    }

    /// Reads a ``ResponseBody``'s chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// A chunk of the body.
        public typealias Element = Data
        /// Why the body ended early.
        public typealias Failure = NetworkError

        fileprivate let reader: Reader

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next() async throws(NetworkError) -> Data? {
            try await reader.channel.next()
        }

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Data?
        {
            try await reader.channel.next()
        }
    }

    /// Where a transport puts a body's chunks as they arrive. Safe to call from any thread.
    public struct Source: Sendable {
        fileprivate let channel: ChunkChannel

        /// Hands the reader a chunk; `false` asks the transport to pause until `onDemand`.
        ///
        /// After the reader stopped, the chunk is dropped and this returns `false`.
        @discardableResult
        public func yield(_ chunk: Data) -> Bool {
            channel.yield(chunk)
        }

        /// Hands the reader a chunk, waiting while the reader is a buffer behind.
        public func send(_ chunk: Data) async {
            if !channel.yield(chunk) { await channel.waitForRoom() }
        }

        /// Ends the body.
        public func finish() {
            channel.end(.finished)
        }

        /// Ends the body with `error`; the reader throws it after the chunks before it.
        public func fail(_ error: NetworkError) {
            channel.end(.failed(error))
        }

        /// Whether the reader has stopped (cancelled, or dropped the body).
        public var isTerminated: Bool { channel.isTerminated }
    }
}

/// Stops the transfer when the last copy of a body and its iterators is gone before the end.
private final class Reader: Sendable {
    let channel: ChunkChannel

    init(channel: ChunkChannel) {
        self.channel = channel
    }

    deinit {
        channel.cancel()
    }
}

/// The buffer between a transport (any thread) and the one task reading a body.
private final class ChunkChannel: Sendable {
    enum End {
        case open, finished, failed(NetworkError), cancelled
    }

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var end = End.open
        var reader: CheckedContinuation<Result<Data?, NetworkError>, Never>?
        var writer: CheckedContinuation<Void, Never>?
        var paused = false
        var terminated = false

        mutating func pop() -> Data? {
            guard head < chunks.count else { return nil }
            let chunk = chunks[head]
            head += 1
            if head == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                head = 0
            }
            buffered -= chunk.count
            return chunk
        }
    }

    private let state = Mutex(State())
    private let bufferSize: Int
    private let onDemand: @Sendable () -> Void
    private let onTermination: @Sendable () -> Void

    init(
        bufferSize: Int, onDemand: @escaping @Sendable () -> Void,
        onTermination: @escaping @Sendable () -> Void
    ) {
        self.bufferSize = max(1, bufferSize)
        self.onDemand = onDemand
        self.onTermination = onTermination
    }

    var isTerminated: Bool {
        state.withLock {
            if case .cancelled = $0.end { return true }
            return false
        }
    }

    func next() async throws(NetworkError) -> Data? {
        if let ready = take() { return try ready.get() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<Data?, NetworkError>? in
                    if let ready = Self.take(&state, bufferSize: bufferSize).result { return ready }
                    state.reader = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// A chunk or the end, if one is ready; resumes a paused transport when the buffer drained.
    private func take() -> Result<Data?, NetworkError>? {
        let (result, resume) = state.withLock { Self.take(&$0, bufferSize: bufferSize) }
        if let resume {
            resume.writer?.resume()
            if resume.demand { onDemand() }
        }
        return result
    }

    private static func take(
        _ state: inout State, bufferSize: Int
    ) -> (
        result: Result<Data?, NetworkError>?,
        resume: (demand: Bool, writer: CheckedContinuation<Void, Never>?)?
    ) {
        if let chunk = state.pop() {
            var resume: (Bool, CheckedContinuation<Void, Never>?)?
            if state.paused, state.buffered <= bufferSize / 2 {
                state.paused = false
                resume = (true, state.writer)
                state.writer = nil
            }
            return (.success(chunk), resume)
        }
        switch state.end {
        case .open: return (nil, nil)
        case .finished: return (.success(nil), nil)
        case .failed(let error): return (.failure(error), nil)
        case .cancelled: return (.failure(.cancelled), nil)
        }
    }

    func yield(_ chunk: Data) -> Bool {
        enum Outcome {
            case dropped, delivered(CheckedContinuation<Result<Data?, NetworkError>, Never>), buffered(Bool)
        }
        let outcome = state.withLock { state -> Outcome in
            guard case .open = state.end else { return .dropped }
            if let reader = state.reader {
                state.reader = nil
                return .delivered(reader)
            }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            if state.buffered >= bufferSize { state.paused = true }
            return .buffered(!state.paused)
        }
        switch outcome {
        case .dropped: return false
        case .delivered(let reader):
            reader.resume(returning: .success(chunk))
            return true
        case .buffered(let more): return more
        }
    }

    func waitForRoom() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard state.paused, case .open = state.end else { return true }
                state.writer = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func end(_ end: End) {
        let (reader, writer) = state.withLock { state in
            guard case .open = state.end else {
                return (CheckedContinuation<Result<Data?, NetworkError>, Never>?.none, state.writer.take())
            }
            state.end = end
            state.terminated = true
            let reader = state.reader.take()
            return (reader, state.writer.take())
        }
        writer?.resume()
        guard let reader else { return }
        switch end {
        case .open, .finished: reader.resume(returning: .success(nil))
        case .failed(let error): reader.resume(returning: .failure(error))
        case .cancelled: reader.resume(returning: .failure(.cancelled))
        }
    }

    /// The reader stopped: drop what is buffered and stop the transfer, unless it already ended.
    func cancel() {
        let (reader, writer, terminate) = state.withLock { state in
            let terminate = !state.terminated
            state.terminated = true
            if case .open = state.end { state.end = .cancelled }
            state.chunks.removeAll()
            state.head = 0
            state.buffered = 0
            return (state.reader.take(), state.writer.take(), terminate)
        }
        reader?.resume(returning: .failure(.cancelled))
        writer?.resume()
        if terminate { onTermination() }
    }
}
