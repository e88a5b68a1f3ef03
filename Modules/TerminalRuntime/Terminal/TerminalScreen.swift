import Foundation
import HeadlessUI
import Layout
import TerminalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes frames to an output: redrawn in place on a live terminal, or one after another as
/// plain text to a pipe or a file (`--script` runs, tests).
///
/// ```swift
/// let screen = TerminalScreen()              // standard output; styles if it is a terminal
/// screen.present(window.render())
/// ```
public final class TerminalScreen {
    /// How frames are written.
    public enum Mode: Sendable, Hashable {
        /// Each frame over the last, from the top-left corner, with styles when ``isStyled``.
        case live
        /// Each frame after the last, as plain lines followed by an empty line.
        case append
    }

    /// How frames are written.
    public let mode: Mode
    /// Whether cells carry their ANSI styles.
    public let isStyled: Bool
    private let sink: (String) -> Void

    /// A screen on `fileDescriptor` (standard output by default): live with styles as
    /// ``Terminal/wantsStyles(environment:isTerminal:)`` says when it is a terminal, appending
    /// plain text otherwise.
    public convenience init(fileDescriptor: Int32 = STDOUT_FILENO) {
        let isTerminal = Terminal.isTerminal(fileDescriptor)
        self.init(
            mode: isTerminal ? .live : .append, styled: Terminal.wantsStyles(isTerminal: isTerminal),
            write: { text in
                var text = text
                text.withUTF8 { buffer in
                    guard let base = buffer.baseAddress else { return }
                    var offset = 0
                    while offset < buffer.count {
                        let written = Foundation.write(fileDescriptor, base + offset, buffer.count - offset)
                        if written <= 0 { return }
                        offset += written
                    }
                }
            })
    }

    /// A screen that hands each write to `write`.
    public init(mode: Mode, styled: Bool, write: @escaping (String) -> Void) {
        self.mode = mode
        isStyled = styled && mode == .live
        sink = write
    }

    /// Writes `canvas`.
    public func present(_ canvas: Canvas) {
        switch mode {
        case .append:
            sink(canvas.text() + "\n\n")
        case .live:
            // Home, then each row over the last frame's: a row shorter than the screen is cleared
            // to its end, and the last row is written after everything from it down is cleared.
            // Never an erase after a row that reaches the last column: the cursor waits there for
            // the next character (the pending wrap), and xterm's erase then takes that column too.
            var frame = "\u{1B}[H"
            for y in 0..<canvas.height {
                let line = isStyled ? canvas.styledLine(y) : canvas.lines[y]
                if y == canvas.height - 1 {
                    frame += "\u{1B}[J" + line
                } else {
                    // A styled row writes every cell, trailing spaces too.
                    let fillsTheRow = isStyled || line.terminalWidth >= canvas.width
                    frame += line + (fillsTheRow ? "" : "\u{1B}[K") + "\r\n"
                }
            }
            sink(frame)
        }
    }

    /// Writes text as it is, for a prompt or a status line under the frame.
    public func write(text: String) {
        sink(text)
    }

    /// Switches a live terminal to its alternate screen, as full-screen programs do, and back.
    public func useAlternateScreen(_ on: Bool) {
        guard mode == .live else { return }
        sink(on ? "\u{1B}[?1049h\u{1B}[H" : "\u{1B}[?1049l")
    }
}
