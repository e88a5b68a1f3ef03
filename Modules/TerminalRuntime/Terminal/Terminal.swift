import Foundation
import Layout

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What TerminalRuntime asks of the terminal it draws to: its size, whether it is one, and whether it
/// wants colour.
public enum Terminal {
    /// The size of the terminal on `fileDescriptor` in cells, from the `TIOCGWINSZ` ioctl, or
    /// `nil` when it is not a terminal (a pipe, a file) or reports no size.
    public static func size(fileDescriptor: Int32 = STDOUT_FILENO) -> Size? {
        var window = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0
        else {
            return nil
        }
        return Size(width: Double(window.ws_col), height: Double(window.ws_row))
    }

    /// The size of one cell of the terminal on `fileDescriptor` in pixels, from the
    /// `TIOCGWINSZ` ioctl, or `nil` when the terminal does not report its pixels (many report 0).
    public static func cellPixelSize(fileDescriptor: Int32 = STDOUT_FILENO) -> Size? {
        var window = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0,
            window.ws_xpixel >= window.ws_col, window.ws_ypixel >= window.ws_row
        else {
            return nil
        }
        return Size(
            width: Double(window.ws_xpixel / window.ws_col), height: Double(window.ws_ypixel / window.ws_row))
    }

    /// Whether `fileDescriptor` is a terminal.
    public static func isTerminal(_ fileDescriptor: Int32 = STDOUT_FILENO) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// Whether output should carry ANSI styles: only to a terminal, and not when `NO_COLOR` is
    /// set to anything non-empty (no-color.org) or `TERM` is `dumb`.
    public static func wantsStyles(
        environment: [String: String] = ProcessInfo.processInfo.environment, isTerminal: Bool
    ) -> Bool {
        guard isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// The terminal's resizes, as they happen (`SIGWINCH`). Iterate it on the main actor and
    /// resize the window to ``size(fileDescriptor:)`` for each. ``TerminalApplication`` does this
    /// itself.
    ///
    /// - Throws: ``TerminalError/cannotCatchSignals(_:)``, as ``SignalEvents/stream(_:)`` does.
    public static func resizes() throws(TerminalError) -> AsyncStream<Void> {
        let signals = try SignalEvents.stream([SIGWINCH])
        return AsyncStream { continuation in
            let task = Task {
                for await _ in signals { continuation.yield() }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
