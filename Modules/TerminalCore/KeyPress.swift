/// One key pressed at the terminal, with the modifiers held: what `InputDecoder` makes of
/// the bytes a terminal sends, and what key commands are matched against.
///
/// ```swift
/// KeyPress("a", modifiers: .control)      // Ctrl-A, byte 0x01
/// KeyPress(.up)                           // ESC [ A
/// KeyPress(.tab, modifiers: .shift)       // ESC [ Z
/// ```
///
/// A control character is decoded as its letter with ``Modifiers/control`` (Ctrl-A is
/// `"a"` with control), except for the keys that have their own name: Tab, Enter, Backspace and
/// Esc.
public struct KeyPress: Sendable, Hashable, CustomStringConvertible {
    /// A key by what it means, whichever of the sequences for it the terminal sent.
    public enum Key: Sendable, Hashable {
        /// A printable character; letters pressed with Ctrl are lowercase.
        case character(Character)
        /// Return or Enter.
        case enter
        /// Tab (Shift-Tab is Tab with ``Modifiers/shift``).
        case tab
        /// Backspace (DEL or Ctrl-H).
        case backspace
        /// Esc, alone.
        case escape
        /// The Up arrow.
        case up
        /// The Down arrow.
        case down
        /// The Left arrow.
        case left
        /// The Right arrow.
        case right
        /// Home: `ESC [ H`, `ESC O H`, or `ESC [ 1 ~` and `ESC [ 7 ~` from the terminals that
        /// number their keys.
        case home
        /// End: `ESC [ F`, `ESC O F`, `ESC [ 4 ~` or `ESC [ 8 ~`.
        case end
        /// Page Up, `ESC [ 5 ~`.
        case pageUp
        /// Page Down, `ESC [ 6 ~`.
        case pageDown
        /// Insert, `ESC [ 2 ~`.
        case insert
        /// Delete (forward).
        case delete
        /// A function key, F1 to F12.
        case function(Int)
    }

    /// The modifier keys held with a key.
    public struct Modifiers: OptionSet, Sendable, Hashable {
        /// The bits, as in xterm's modifier parameter minus one.
        public let rawValue: UInt8
        /// Creates modifiers from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Shift. A shifted letter arrives as the capital; this is set for keys without a
        /// shifted character, such as Shift-Tab and Shift-Up.
        public static let shift = Modifiers(rawValue: 1)
        /// Alt, or Meta: what terminals send as an Esc before the key.
        public static let alt = Modifiers(rawValue: 2)
        /// Control; a letter pressed with it is the lowercase letter (Ctrl-A is `"a"`).
        public static let control = Modifiers(rawValue: 4)
    }

    /// The key, apart from the modifiers held with it.
    public var key: Key
    /// The modifiers held.
    public var modifiers: Modifiers

    /// A press of `key` with `modifiers`; `KeyPress(.up)` is the plain Up arrow.
    public init(_ key: Key, modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A press of the character `character` with `modifiers`; Ctrl letters are matched
    /// lowercase.
    public init(_ character: Character, modifiers: Modifiers = []) {
        self.init(.character(character), modifiers: modifiers)
    }

    /// The printable character this press types, or `nil` for a named key or a press with Ctrl
    /// or Alt held.
    public var typedCharacter: Character? {
        guard case .character(let character) = key, modifiers.isDisjoint(with: [.control, .alt]) else {
            return nil
        }
        return character
    }

    /// How help texts write the press, in ASCII so that every terminal shows it: `Ctrl-A`,
    /// `Alt-x`, `Shift-Tab`, `Up`, `PgDn`, `F1`, `?`.
    public var description: String {
        var name: String
        switch key {
        case .character(" "): name = "Space"
        case .character(let character): name = String(character)
        case .enter: name = "Enter"
        case .tab: name = "Tab"
        case .backspace: name = "Backspace"
        case .escape: name = "Esc"
        case .up: name = "Up"
        case .down: name = "Down"
        case .left: name = "Left"
        case .right: name = "Right"
        case .home: name = "Home"
        case .end: name = "End"
        case .pageUp: name = "PgUp"
        case .pageDown: name = "PgDn"
        case .insert: name = "Ins"
        case .delete: name = "Del"
        case .function(let number): name = "F\(number)"
        }
        if case .character(let character) = key, modifiers.contains(.control) {
            name = String(character).uppercased()
        }
        if modifiers.contains(.shift) { name = "Shift-" + name }
        if modifiers.contains(.alt) { name = "Alt-" + name }
        if modifiers.contains(.control) { name = "Ctrl-" + name }
        return name
    }
}

/// A mouse report from a terminal in SGR mode (1006): a press, a release, a drag or a wheel
/// turn, at a cell.
public struct MouseEvent: Sendable, Hashable {
    /// What the mouse did.
    public enum Kind: Sendable, Hashable {
        /// A button went down.
        case press(Button)
        /// A button came up.
        case release(Button)
        /// The mouse moved with a button down.
        case drag(Button)
        /// The wheel turned up (towards the top of the content).
        case scrollUp
        /// The wheel turned down.
        case scrollDown
    }

    /// A mouse button.
    public enum Button: Sendable, Hashable {
        /// The primary button.
        case left
        /// The middle button or wheel click.
        case middle
        /// The secondary button.
        case right
    }

    /// What the mouse did.
    public var kind: Kind
    /// The column, from 0.
    public var x: Int
    /// The row, from 0.
    public var y: Int
    /// The modifiers held.
    public var modifiers: KeyPress.Modifiers

    /// A mouse event at column `x` and row `y`, both from 0.
    public init(_ kind: Kind, x: Int, y: Int, modifiers: KeyPress.Modifiers = []) {
        self.kind = kind
        self.x = x
        self.y = y
        self.modifiers = modifiers
    }
}

/// Something the user did at the terminal, or the terminal's answer to a question the program
/// asked it.
public enum InputEvent: Sendable, Hashable {
    /// A key press the focused view or the key commands on screen may take.
    case key(KeyPress)
    /// Text pasted in bracketed-paste mode, with its control characters removed (newlines and
    /// tabs stay).
    case paste(String)
    /// A mouse report.
    case mouse(MouseEvent)
    /// The terminal's answer to a query the program wrote; never something the user typed.
    case reply(TerminalReply)
}

/// An answer a terminal writes on its input to a query, as `InputDecoder` reads it.
public enum TerminalReply: Sendable, Hashable {
    /// An answer of kitty's graphics protocol, `ESC _ G i=<id>;<message> ESC \`: `OK`, or an
    /// error such as `ENOENT:image not found` (`KittyGraphics`).
    case kittyGraphics(id: UInt32, message: String)
    /// The primary device attributes, `ESC [ ? <numbers> c`, the answer to `ESC [ c`: the
    /// terminal's class and features.
    case deviceAttributes([Int])
}
