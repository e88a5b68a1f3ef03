/// How a test waits for a program in a terminal (tmux or a pseudo-terminal) to show something.
///
/// A program's frame can reach the terminal in several reads, and on a busy machine (a CI run
/// with every test target at once) a capture can land between two of them. So a test waits for
/// everything it then asserts — the last rows of the frame, the status line — never for a first
/// marker; and the wait is long, since it is spent only when what is awaited never comes.
package enum TerminalWait {
    /// How long a wait lasts before the test fails.
    package static let timeout: Duration = .seconds(30)

    /// Calls `probe` every `interval` until it returns a value, for at most `timeout`.
    ///
    /// - Returns: The first value, or `nil` if none came in time.
    package static func poll<Value>(
        every interval: Duration, for timeout: Duration = TerminalWait.timeout,
        _ probe: () async throws -> Value?
    ) async throws -> Value? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try await probe() { return value }
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: interval)
        }
    }
}
