import Layout
import TerminalCore

/// What happened after the user's last action, for a ``StatusBar``: one sentence, and whether it
/// went well.
public struct StatusMessage: Sendable, Hashable, CustomStringConvertible {
    /// How the message reads. The raw values name the kinds, so that a message can be made from
    /// another module's notice of the same kind.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A neutral note: where a command belongs, what a key does.
        case info
        /// Something was done.
        case success
        /// Something could not be done; the text says why.
        case failure
    }

    /// One sentence for the status line, cut with `…` where the line is too short.
    public var text: String
    /// How it reads.
    public var kind: Kind

    /// A message of `kind`.
    public init(_ text: String, kind: Kind = .info) {
        self.text = text
        self.kind = kind
    }

    /// A message saying something was done.
    public static func success(_ text: String) -> StatusMessage { StatusMessage(text, kind: .success) }
    /// A message saying why something could not be done.
    public static func failure(_ text: String) -> StatusMessage { StatusMessage(text, kind: .failure) }

    /// The text alone, without its kind.
    public var description: String { text }
}

/// One row that shows the window's ``Window/status``, the same place and style for every screen:
/// failures bold in red, successes in green, notes plain. Text that does not fit ends in `…`.
///
/// ```swift
/// post(.failure("There is no row 12."))    // in a view controller: Window.post(_:from: self)
/// ```
open class StatusBar: View, Drawable {
    /// How each kind of message is drawn.
    public var styles: [StatusMessage.Kind: TextStyle] = [
        .info: .plain,
        .success: TextStyle(foreground: .green),
        .failure: TextStyle(foreground: .red, isBold: true),
    ]

    /// Creates a status bar.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        accessibilityIdentifier = "StatusBar"
    }

    /// One row.
    open override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 1) }

    /// Draws the window's status from the second column.
    open func draw(in context: inout DrawingContext) {
        guard let status = window?.status, context.width > 2 else { return }
        let room = context.width - 2
        var text = status.text.replacingOccurrences(of: "\n", with: " ")
        if text.terminalWidth > room {
            while text.terminalWidth > room - 1, !text.isEmpty { text.removeLast() }
            text += "…"
        }
        _ = context.draw(text, x: 1, y: 0, style: styles[status.kind] ?? .plain)
    }
}

extension View {
    /// Asks for a frame, for changes made outside an input event (a download finished): the
    /// window passes the request to whoever draws it (the window's `onNeedsDisplay`, which
    /// `TerminalApplication` sets). Does nothing for a view outside a window.
    public func setNeedsDisplay() {
        window?.onNeedsDisplay?()
    }
}
