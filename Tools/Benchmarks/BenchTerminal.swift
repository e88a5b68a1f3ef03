import Foundation
import HeadlessUITesting
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal for an app under benchmark, playing the terminal emulator: the app gets
/// the slave side as its standard input and output; a thread of the benchmark's own reads the
/// master side, replays it on a ``VirtualTerminal``, answers the queries a terminal answers
/// (the app asks for the device attributes before its first frame), and notes the moment the
/// screen first shows what a waiter asks for.
///
/// The moment is taken when the bytes are read, before they are replayed, so the replay's own
/// cost is not counted.
final class BenchTerminal: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The slave side, for the child's standard input and output. Hand it over with
    /// `closeAfterSpawningProcess: true` once: when the child ends, nothing holds it open any
    /// more and the reading thread stops.
    let slave: FileDescriptor
    private let master: Int32
    private let state: Mutex<State>

    private struct State {
        var terminal: VirtualTerminal
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var isClosed = false
    }

    private struct Waiter {
        let condition: @Sendable (VirtualTerminal) -> Bool
        let continuation: CheckedContinuation<ContinuousClock.Instant, any Error>
    }

    /// A `width`×`height` terminal whose reading thread has started.
    init(width: Int, height: Int) throws {
        // posix_openpt, unlockpt and ptsname are not in Swift's Glibc module; on Linux they are
        // these: open the multiplexer, unlock the new pair (TIOCSPTLCK), ask its number
        // (TIOCGPTN); the request numbers are the same on x86-64 and arm64.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0
        else {
            if master >= 0 { close(master) }
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "cannot open /dev/pts/\(number): \(String(cString: strerror(errno)))")
        }
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        self.master = master
        self.slave = FileDescriptor(rawValue: slave)
        state = Mutex(State(terminal: VirtualTerminal(width: width, height: height)))
        startReading()
    }

    /// Sends `text` as typed keys: the bytes a terminal sends for them.
    func type(_ text: String) {
        state.withLock { state in
            guard !state.isClosed else { return }
            Self.write(Array(text.utf8), to: master)
        }
    }

    /// The screen now.
    var screen: VirtualTerminal { state.withLock { $0.terminal } }

    /// Waits until the screen shows what `condition` asks for, and returns the moment the bytes
    /// that made it so were read (now, if it already does). Throws when the app's side closes
    /// first, or after `timeout`.
    func moment(
        when condition: @escaping @Sendable (VirtualTerminal) -> Bool, timeout: Duration = .seconds(10)
    ) async throws -> ContinuousClock.Instant {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let expiry = Task { [weak self] in
            try await Task.sleep(for: timeout)
            guard let self else { return }
            let screen = self.screen.text
            self.fail(
                id,
                Failure(description: "the screen did not show what was awaited within \(timeout):\n\(screen)")
            )
        }
        defer { expiry.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { state in
                if state.isClosed {
                    continuation.resume(throwing: Failure(description: "the app closed the terminal"))
                } else if condition(state.terminal) {
                    continuation.resume(returning: ContinuousClock.now)
                } else {
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                }
            }
        }
    }

    private func fail(_ id: Int, _ error: any Error) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: error)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress, $0.count)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }

    /// A thread of its own blocks in `read` on the master side until every slave descriptor is
    /// closed (the app has ended), then fails the waiters left and closes the master.
    private func startReading() {
        let master = self.master
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                let readAt = ContinuousClock.now
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let met = state.withLock { state -> [Waiter] in
                    state.terminal.apply(Array(buffer[0..<count]))
                    let replies = state.terminal.takeReplies()
                    if !replies.isEmpty { Self.write(replies, to: master) }
                    let met = state.waiters.filter { $0.value.condition(state.terminal) }
                    for id in met.keys { state.waiters.removeValue(forKey: id) }
                    return Array(met.values)
                }
                for waiter in met { waiter.continuation.resume(returning: readAt) }
            }
            let left = state.withLock { state -> [Waiter] in
                state.isClosed = true
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in left {
                waiter.continuation.resume(throwing: Failure(description: "the app closed the terminal"))
            }
            close(master)
        }
        thread.name = "bench terminal"
        thread.start()
    }
}
