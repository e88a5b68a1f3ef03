import Foundation
import HeadlessUI
import Synchronization
import TerminalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a terminal's input on a thread of its own and decodes it into ``InputEvent``s.
///
/// ```swift
/// let input = TerminalInput(fileDescriptor: STDIN_FILENO)
/// for await event in input.events() { … }
/// ```
///
/// The thread blocks in `poll(2)`, never on the cooperative thread pool. When bytes of an
/// unfinished sequence are pending (an Esc, say) and nothing more comes within
/// ``escapeTimeout``, the decoder is flushed, so a lone Esc arrives as the Esc key. The stream
/// ends at the end of input, on a read error, or when the iteration ends (which wakes the
/// thread through a pipe and lets it finish).
package final class TerminalInput: Sendable {
    /// How long to wait for the rest of an escape sequence before taking an Esc as typed. Vim's
    /// `ttimeoutlen` is 100 ms and Neovim's 50 ms; sequences from a local terminal arrive in one
    /// read, over ssh within a few milliseconds.
    package static let escapeTimeout: Duration = .milliseconds(50)

    /// The descriptor read.
    package let fileDescriptor: Int32

    /// Input read from `fileDescriptor`.
    package init(fileDescriptor: Int32 = STDIN_FILENO) {
        self.fileDescriptor = fileDescriptor
    }

    /// The events decoded from the input, as they arrive.
    package func events() -> AsyncStream<InputEvent> {
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            return AsyncStream { $0.finish() }
        }
        let reader = Reader(input: fileDescriptor, wakeRead: wake[0], wakeWrite: wake[1])
        return AsyncStream(bufferingPolicy: .unbounded) { continuation in
            continuation.onTermination = { _ in reader.stop() }
            let thread = Thread { reader.run(continuation) }
            thread.name = "TerminalRuntime.TerminalInput"
            thread.start()
        }
    }

    /// The reading loop and the pipe that stops it.
    private final class Reader: Sendable {
        let input: Int32
        let wakeRead: Int32
        let wakeWrite: Int32
        private let stopped = Mutex(false)

        init(input: Int32, wakeRead: Int32, wakeWrite: Int32) {
            self.input = input
            self.wakeRead = wakeRead
            self.wakeWrite = wakeWrite
        }

        /// Wakes the thread to finish. The lock keeps the pipe open while this writes to it.
        func stop() {
            stopped.withLock { stopped in
                guard !stopped else { return }
                stopped = true
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
            }
        }

        func run(_ continuation: AsyncStream<InputEvent>.Continuation) {
            defer {
                stopped.withLock { stopped in
                    stopped = true
                    close(wakeRead)
                    close(wakeWrite)
                }
                continuation.finish()
            }
            var decoder = InputDecoder()
            var buffer = [UInt8](repeating: 0, count: 4096)
            let timeout = Int32(TerminalInput.escapeTimeout.components.attoseconds / 1_000_000_000_000_000)
            while !stopped.withLock({ $0 }) {
                var fds = [
                    pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&fds, 2, decoder.hasPendingInput ? timeout : -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if fds[1].revents != 0 { return }
                if ready == 0 {
                    for event in decoder.flush() { continuation.yield(event) }
                    continue
                }
                let count = read(input, &buffer, buffer.count)
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else {
                    for event in decoder.flush() { continuation.yield(event) }
                    return
                }
                for event in decoder.feed(buffer[0..<count]) { continuation.yield(event) }
            }
        }
    }
}
