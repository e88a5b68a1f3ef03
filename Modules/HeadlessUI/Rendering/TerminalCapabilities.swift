import Foundation
import Layout
import TerminalCore

/// What a terminal can show: how many colours, whether it takes UTF-8 (box drawing, symbols,
/// wide characters) or only ASCII, and whether it draws pictures itself.
///
/// ```swift
/// let capabilities = TerminalCapabilities(environment: ProcessInfo.processInfo.environment)
/// // LANG=C → isUnicode == false: borders are drawn with + - |
/// ```
///
/// The environment tells the colours and the locale. Whether the terminal speaks kitty's
/// graphics protocol is asked of the terminal itself (TerminalRuntime's `KittyGraphicsProbe`),
/// which its `TerminalApplication` does when it starts.
public struct TerminalCapabilities: Sendable, Hashable {
    /// The colours the terminal shows.
    public var colorDepth: ColorDepth
    /// Whether the locale's character set is UTF-8; when not, frames are written in ASCII
    /// (TerminalRuntime's `GlyphFallback`).
    public var isUnicode: Bool
    /// Whether the terminal draws pictures sent with kitty's graphics protocol; when not,
    /// ``ImageView`` draws them with half blocks. Off until the terminal says so.
    public var kittyGraphics: Bool
    /// The size of one cell in pixels, when the terminal reports it (`TIOCGWINSZ`): pictures
    /// sent with the graphics protocol are scaled to the pixels their cells cover. `nil` assumes
    /// ``defaultCellPixelSize``.
    public var cellPixelSize: Size?

    /// What a cell is taken to measure when the terminal does not say: 10 by 20 pixels.
    package static let defaultCellPixelSize = Size(width: 10, height: 20)

    /// Capabilities given outright, for tests and drivers.
    public init(
        colorDepth: ColorDepth = .trueColor, isUnicode: Bool = true, kittyGraphics: Bool = false,
        cellPixelSize: Size? = nil
    ) {
        self.colorDepth = colorDepth
        self.isUnicode = isUnicode
        self.kittyGraphics = kittyGraphics
        self.cellPixelSize = cellPixelSize
    }

    /// What the environment says: the colour depth as ``ColorDepth/init(environment:)`` reads
    /// it, and UTF-8 when the locale that applies (`LC_ALL`, else `LC_CTYPE`, else `LANG`) names
    /// UTF-8. An unset or `C`/`POSIX` locale is ASCII, as the C library takes it.
    public init(environment: [String: String]) {
        colorDepth = ColorDepth(environment: environment)
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        let normalized = (locale ?? "").lowercased().replacingOccurrences(of: "-", with: "")
        isUnicode = normalized.contains("utf8")
        kittyGraphics = false
        cellPixelSize = nil
    }
}
