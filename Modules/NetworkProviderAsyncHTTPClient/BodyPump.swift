import AsyncHTTPClient
import Foundation
import NIOCore
import NetworkProvider
import Synchronization

/// Moves an AsyncHTTPClient body into a ``NetworkProvider/ResponseBody``: counts it against the
/// size limit, waits while the reader is a buffer behind (AsyncHTTPClient then stops reading
/// the socket), and stops it at the request's deadline, which AsyncHTTPClient applies to the
/// head only.
final class BodyPump: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var timer: Scheduled<Void>?
        var timedOut = false
        var stopped = false
    }

    private let state = Mutex(State())

    static func start(
        _ chunks: HTTPClientResponse.Body, limit: Int, deadline: NIODeadline, timeout: TimeInterval,
        on eventLoop: any EventLoop
    ) -> ResponseBody {
        let pump = BodyPump()
        let (body, source) = ResponseBody.makeStream(onTermination: { pump.stop(timedOut: false) })
        let task = Task {
            await pump.run(chunks, into: source, limit: limit, timeout: timeout)
        }
        let timer = eventLoop.scheduleTask(deadline: deadline) { pump.stop(timedOut: true) }
        let stoppedEarly = pump.state.withLock { state in
            state.task = task
            state.timer = timer
            return state.stopped
        }
        if stoppedEarly {
            task.cancel()
            timer.cancel()
        }
        return body
    }

    private func run(
        _ chunks: HTTPClientResponse.Body, into source: ResponseBody.Source, limit: Int, timeout: TimeInterval
    ) async {
        defer { state.withLock { $0.timer.take() }?.cancel() }
        var received = 0
        do {
            for try await buffer in chunks {
                received += buffer.readableBytes
                guard received <= limit else {
                    source.fail(.responseTooLarge(limit: limit))
                    return
                }
                await source.send(Data(buffer.readableBytesView))
                if source.isTerminated { return }
            }
        } catch {
            source.fail(outcome(timeout: timeout) ?? AsyncHTTPClientFailure.map(error, timeout: timeout))
            return
        }
        // A cancelled body sequence may just end: only a body that was not stopped is complete.
        if let early = outcome(timeout: timeout) { source.fail(early) } else { source.finish() }
    }

    /// Why the pump was stopped, if it was.
    private func outcome(timeout: TimeInterval) -> NetworkError? {
        state.withLock { state in
            guard state.stopped else { return nil }
            return state.timedOut ? .timeout(seconds: timeout) : .cancelled
        }
    }

    /// Stops the pump: the reader is gone, or the deadline has passed.
    func stop(timedOut: Bool) {
        let (task, timer) = state.withLock { state in
            guard !state.stopped else { return (Task<Void, Never>?.none, Scheduled<Void>?.none) }
            state.stopped = true
            state.timedOut = timedOut
            return (state.task, timedOut ? nil : state.timer.take())
        }
        task?.cancel()
        timer?.cancel()
    }
}
