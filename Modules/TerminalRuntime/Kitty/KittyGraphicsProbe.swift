import HeadlessUI
import TerminalCore

/// Finds out whether a terminal shows pictures with kitty's graphics protocol, from its replies
/// to ``query``: the terminal says so itself, nothing is guessed from `TERM`.
///
/// ```swift
/// var probe = KittyGraphicsProbe()
/// output.write(probe.query)
/// for event in decoder.feed(bytesRead) {
///     if case .reply(let reply) = event, let answer = probe.receive(reply) { … }
/// }
/// // nothing within probe.timeout: probe.timedOut()
/// ```
///
/// The query asks about a one-pixel image, then for the primary device attributes, which
/// terminals answer in order. So a graphics `OK` before the attributes is a yes; an error (a
/// terminal that knows the protocol but cannot take pixels inline) or the attributes alone (a
/// terminal that ignores the query, such as tmux, which drops it unless passthrough is on) is
/// a no, and is known as soon as the attributes arrive. Only a terminal that answers neither
/// needs the ``timeout``.
public struct KittyGraphicsProbe: Sendable {
    /// What the terminal answered.
    public enum Answer: Sendable, Hashable {
        /// The terminal shows pictures sent inline.
        case supported
        /// It does not; why, in words.
        case unsupported(String)
    }

    /// The image number the query asks about, which the answer names.
    public let id: UInt32
    /// How long to wait for a terminal that answers nothing before taking it as a no
    /// (``timedOut()``); the caller keeps the time.
    public let timeout: Duration
    /// The ``timeout`` unless one is given: local terminals answer within a millisecond, over
    /// ssh within a round trip.
    public static let defaultTimeout: Duration = .milliseconds(250)

    /// The answer, once known.
    public private(set) var answer: Answer?

    /// A probe whose query asks about image `id` (any number but 0; kitty's own programs use 31)
    /// and that gives a silent terminal `timeout`.
    public init(id: UInt32 = 31, timeout: Duration = defaultTimeout) {
        self.id = id
        self.timeout = timeout
    }

    /// What to write to the terminal.
    public var query: [UInt8] { KittyGraphics.query(id: id) }

    /// Whether the terminal the environment describes may be asked at all: when
    /// ``reasonNotToAsk(environment:)`` has no reason.
    public static func mayAsk(environment: [String: String]) -> Bool {
        reasonNotToAsk(environment: environment) == nil
    }

    /// Why the terminal the environment describes is not asked, or `nil` when it may be. Inside
    /// tmux or GNU screen (`TMUX`, `STY`, a `TERM` of `tmux…` or `screen…`) the query's APC
    /// string would become the pane's title, which tmux shows in its status line; the Linux
    /// console (`TERM` `linux`) prints it as text; a `dumb` terminal, or none named, is not asked
    /// either. They get half blocks without a query.
    ///
    /// Pictures through tmux would need its `allow-passthrough` option, every graphics command
    /// wrapped in a DCS string for the terminal outside, and kitty's Unicode placeholders
    /// (U+10EEEE cells that tmux moves and clips as text) instead of placements; HeadlessUI
    /// does not do that, so inside tmux a picture is always half blocks.
    public static func reasonNotToAsk(environment: [String: String]) -> String? {
        let term = environment["TERM"] ?? ""
        if environment["TMUX"]?.isEmpty == false || term.hasPrefix("tmux") {
            return "inside tmux, which would take the query for the pane's title and passes no pictures on"
        }
        if environment["STY"]?.isEmpty == false || term.hasPrefix("screen") {
            return "inside GNU screen, which would take the query for its status line"
        }
        if term.hasPrefix("linux") { return "the Linux console, which would print the query" }
        if term.isEmpty || term == "dumb" {
            return "a terminal without a known type (TERM is \(term.isEmpty ? "unset" : term))"
        }
        return nil
    }

    /// Takes in a reply read from the terminal, and returns the answer once it is known. Replies
    /// to other queries (a graphics answer about another image) are ignored; after the answer,
    /// so is everything.
    @discardableResult
    public mutating func receive(_ reply: TerminalReply) -> Answer? {
        guard answer == nil else { return answer }
        switch reply {
        case .kittyGraphics(let id, let message) where id == self.id:
            answer =
                message == "OK"
                ? .supported : .unsupported("the terminal refused the graphics query: \(message)")
        case .kittyGraphics:
            break
        case .deviceAttributes:
            answer = .unsupported("the terminal did not answer the graphics query")
        }
        return answer
    }

    /// Takes the silence after ``timeout`` as a no, unless an answer came first; returns the
    /// answer.
    @discardableResult
    public mutating func timedOut() -> Answer {
        if let answer { return answer }
        let answer = Answer.unsupported("the terminal answered no query within \(timeout)")
        self.answer = answer
        return answer
    }
}
