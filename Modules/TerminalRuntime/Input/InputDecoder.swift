import HeadlessUI
import TerminalCore

/// Turns the bytes a terminal in raw mode sends into key presses, pastes and mouse reports.
///
/// ```swift
/// var decoder = InputDecoder()
/// decoder.feed(Array("\u{1B}[A".utf8))    // [.key(KeyPress(.up))]
/// decoder.feed([0x1B])                    // [] — an Esc alone, or the start of a sequence?
/// decoder.flush()                         // [.key(KeyPress(.escape))], after a short wait
/// ```
///
/// Reads may split a sequence anywhere (a UTF-8 character, an escape sequence, a paste): the
/// decoder keeps the unfinished part for the next ``feed(_:)``. An Esc cannot be told from the
/// start of a sequence until more bytes come or none do; the reader calls ``flush()`` when no
/// byte followed within a short timeout (`TerminalInput/escapeTimeout`), and what is pending
/// then is taken as typed.
///
/// It understands xterm's keys (arrows, Home/End, PageUp/Down, Insert/Delete, F1–F12, with
/// their Shift/Alt/Ctrl modifier parameter, and the SS3 forms), Alt as an Esc prefix, control
/// characters, bracketed paste (mode 2004) and SGR mouse reports (mode 1006). Two of the
/// terminal's replies are decoded as ``InputEvent/reply(_:)``: kitty graphics answers and primary
/// device attributes. Every other escape sequence, and the other replies (OSC, DCS, APC
/// strings), are consumed and dropped, so that nothing a user types or pastes reaches the screen
/// as a control sequence.
package struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    private var paste: [UInt8]?

    /// A decoder with nothing pending.
    package init() {}

    /// Whether bytes wait for the rest of a sequence (or for ``flush()``).
    package var hasPendingInput: Bool { !pending.isEmpty || paste != nil }

    /// Decodes `bytes` after what was pending, and returns the events they complete.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// Takes what is pending as typed: an Esc alone is the Esc key, an unfinished sequence is
    /// its characters with Alt. A paste that has not ended stays pending.
    package mutating func flush() -> [InputEvent] {
        decode(final: true)
    }

    private static let escape: UInt8 = 0x1B
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    private mutating func decode(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            if paste != nil {
                guard let next = collectPaste(from: index, into: &events) else { return events }
                index = next
                continue
            }
            switch parse(at: index, final: final) {
            case .incomplete:
                pending.removeFirst(index)
                return events
            case .parsed(let event, let length):
                if let event { events.append(event) }
                index += length
            case .pasteStart(let length):
                paste = []
                index += length
            }
        }
        pending.removeAll(keepingCapacity: true)
        return events
    }

    /// Moves paste bytes from `pending[start...]` into the paste. Returns where decoding goes on
    /// after the paste's end marker, or `nil` when the end has not come yet; `pending` then
    /// keeps only what may be the start of the end marker.
    private mutating func collectPaste(from start: Int, into events: inout [InputEvent]) -> Int? {
        let end = Self.pasteEnd
        var index = start
        while index < pending.count {
            if pending[index] == Self.escape {
                let available = min(end.count, pending.count - index)
                if pending[index..<(index + available)].elementsEqual(end[0..<available]) {
                    paste?.append(contentsOf: pending[start..<index])
                    guard available == end.count else {
                        pending.removeFirst(index)  // the end marker, split across reads
                        return nil
                    }
                    events.append(.paste(Self.sanitizedPaste(paste ?? [])))
                    paste = nil
                    return index + end.count
                }
            }
            index += 1
        }
        paste?.append(contentsOf: pending[start...])
        pending.removeAll(keepingCapacity: true)
        return nil
    }

    /// Pasted text without control characters or escape sequences. Line ends (`\r\n`, `\r`)
    /// become `\n`; tabs stay.
    static func sanitizedPaste(_ bytes: [UInt8]) -> String {
        var text = String.UnicodeScalarView()
        var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars.makeIterator()
        var afterCarriageReturn = false
        while let scalar = scalars.next() {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar.value {
            case 0x0D: text.append("\n")
            case 0x0A: if !afterCarriageReturn { text.append("\n") }
            case 0x09: text.append(scalar)
            case 0x1B:
                // An escape sequence inside the paste: skipped up to its final byte.
                guard let introducer = scalars.next(), introducer == "[" else { continue }
                while let next = scalars.next(), !(0x40...0x7E).contains(next.value) {}
            case 0..<0x20, 0x7F..<0xA0: continue
            default: text.append(scalar)
            }
        }
        return String(text)
    }

    private enum Step {
        case incomplete
        case parsed(InputEvent?, length: Int)
        case pasteStart(length: Int)
    }

    private func parse(at start: Int, final: Bool) -> Step {
        let byte = pending[start]
        let remaining = pending.count - start
        if byte == Self.escape {
            guard remaining > 1 else {
                return final ? .parsed(.key(KeyPress(.escape)), length: 1) : .incomplete
            }
            let next = pending[start + 1]
            switch next {
            case UInt8(ascii: "["):
                return parseCSI(at: start, final: final)
            case UInt8(ascii: "O"):
                guard remaining > 2 else {
                    return final ? .parsed(.key(KeyPress("O", modifiers: .alt)), length: 2) : .incomplete
                }
                return .parsed(ss3(pending[start + 2]).map(InputEvent.key), length: 3)
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"),
                UInt8(ascii: "X"):
                return skipString(at: start, final: final)
            case Self.escape:
                // Esc Esc: Alt-Esc, or an Esc followed by a sequence; take the first as Esc.
                return .parsed(.key(KeyPress(.escape)), length: 1)
            default:
                // Alt-key: Esc, then the key.
                switch parseSingle(at: start + 1, final: final) {
                case .incomplete: return .incomplete
                case .parsed(.key(var press)?, let length):
                    press.modifiers.insert(.alt)
                    return .parsed(.key(press), length: length + 1)
                case .parsed(_, let length): return .parsed(nil, length: length + 1)
                case .pasteStart: return .parsed(nil, length: 1)
                }
            }
        }
        return parseSingle(at: start, final: final)
    }

    /// A control character, or one UTF-8 character.
    private func parseSingle(at start: Int, final: Bool) -> Step {
        let byte = pending[start]
        switch byte {
        case 0x0D, 0x0A: return .parsed(.key(KeyPress(.enter)), length: 1)
        case 0x09: return .parsed(.key(KeyPress(.tab)), length: 1)
        case 0x7F, 0x08: return .parsed(.key(KeyPress(.backspace)), length: 1)
        case 0x00: return .parsed(.key(KeyPress(" ", modifiers: .control)), length: 1)
        case 0x1B: return .parsed(.key(KeyPress(.escape)), length: 1)
        case 0x01...0x1A:
            let letter = Character(Unicode.Scalar(byte + 0x60))
            return .parsed(.key(KeyPress(letter, modifiers: .control)), length: 1)
        case 0x1C...0x1F:
            let symbol = Character(Unicode.Scalar(byte + 0x40))
            return .parsed(.key(KeyPress(symbol, modifiers: .control)), length: 1)
        case 0x20..<0x7F:
            return .parsed(.key(KeyPress(Character(Unicode.Scalar(byte)))), length: 1)
        default:
            return parseUTF8(at: start, final: final)
        }
    }

    private func parseUTF8(at start: Int, final: Bool) -> Step {
        let lead = pending[start]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .parsed(nil, length: 1)  // a stray continuation byte or an invalid lead
        }
        let available = pending.count - start
        for offset in 1..<min(length, available) where pending[start + offset] & 0xC0 != 0x80 {
            return .parsed(nil, length: offset)  // broken sequence: drop what came before
        }
        guard available >= length else { return final ? .parsed(nil, length: available) : .incomplete }
        let text = String(decoding: pending[start..<(start + length)], as: UTF8.self)
        guard let scalar = text.unicodeScalars.first, scalar.value != 0xFFFD,
            !(0x80..<0xA0).contains(scalar.value)
        else { return .parsed(nil, length: length) }
        // A combining mark typed alone still arrives as its own character.
        return .parsed(.key(KeyPress(Character(scalar))), length: length)
    }

    /// `ESC [` parameters, intermediates and a final byte.
    private func parseCSI(at start: Int, final: Bool) -> Step {
        var index = start + 2
        while index < pending.count, (0x30...0x3F).contains(pending[index]) { index += 1 }
        while index < pending.count, (0x20...0x2F).contains(pending[index]) { index += 1 }
        guard index < pending.count else {
            // `ESC [` alone after the timeout is Alt-[.
            if final {
                return index == start + 2
                    ? .parsed(.key(KeyPress("[", modifiers: .alt)), length: 2)
                    : .parsed(nil, length: index - start)
            }
            return .incomplete
        }
        let finalByte = pending[index]
        let length = index - start + 1
        guard (0x40...0x7E).contains(finalByte) else {
            // Not a CSI sequence after all: drop the introducer and go on from the odd byte.
            return .parsed(nil, length: index - start)
        }
        let parameterBytes = pending[(start + 2)..<index]
        if parameterBytes.first == UInt8(ascii: "<"),
            finalByte == UInt8(ascii: "M") || finalByte == UInt8(ascii: "m")
        {
            let numbers = Self.numbers(parameterBytes.dropFirst())
            return .parsed(Self.mouse(numbers, released: finalByte == UInt8(ascii: "m")), length: length)
        }
        if parameterBytes.first == UInt8(ascii: "?"), finalByte == UInt8(ascii: "c") {
            let numbers = Self.numbers(parameterBytes.dropFirst())
            return .parsed(.reply(.deviceAttributes(numbers)), length: length)
        }
        guard parameterBytes.allSatisfy({ (0x30...0x3B).contains($0) }) else {
            return .parsed(nil, length: length)  // private sequences and replies: dropped
        }
        let numbers = Self.numbers(parameterBytes)
        let modifiers = Self.modifiers(numbers.count > 1 ? numbers[1] : 1)
        let key: KeyPress.Key?
        switch finalByte {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = .right
        case UInt8(ascii: "D"): key = .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "P"): key = .function(1)
        case UInt8(ascii: "Q"): key = .function(2)
        case UInt8(ascii: "R"): key = .function(3)
        case UInt8(ascii: "S"): key = .function(4)
        case UInt8(ascii: "Z"):
            return .parsed(.key(KeyPress(.tab, modifiers: modifiers.union(.shift))), length: length)
        case UInt8(ascii: "u"):
            // The kitty keyboard protocol's `CSI code ; modifiers u`.
            guard let code = numbers.first.flatMap({ Unicode.Scalar(UInt32($0)) }) else {
                return .parsed(nil, length: length)
            }
            let press: KeyPress
            switch code.value {
            case 13: press = KeyPress(.enter, modifiers: modifiers)
            case 9: press = KeyPress(.tab, modifiers: modifiers)
            case 27: press = KeyPress(.escape, modifiers: modifiers)
            case 127: press = KeyPress(.backspace, modifiers: modifiers)
            case 0x20...: press = KeyPress(Character(code), modifiers: modifiers)
            default: return .parsed(nil, length: length)
            }
            return .parsed(.key(press), length: length)
        case UInt8(ascii: "~"):
            if numbers.first == 200 { return .pasteStart(length: length) }
            key = numbers.first.flatMap(Self.tildeKey)
        default:
            key = nil  // focus reports, cursor position replies and the like
        }
        return .parsed(key.map { .key(KeyPress($0, modifiers: modifiers)) }, length: length)
    }

    /// `ESC O` and one letter: what terminals in application mode send for arrows and F1–F4.
    private func ss3(_ byte: UInt8) -> KeyPress? {
        switch byte {
        case UInt8(ascii: "A"): KeyPress(.up)
        case UInt8(ascii: "B"): KeyPress(.down)
        case UInt8(ascii: "C"): KeyPress(.right)
        case UInt8(ascii: "D"): KeyPress(.left)
        case UInt8(ascii: "H"): KeyPress(.home)
        case UInt8(ascii: "F"): KeyPress(.end)
        case UInt8(ascii: "P"): KeyPress(.function(1))
        case UInt8(ascii: "Q"): KeyPress(.function(2))
        case UInt8(ascii: "R"): KeyPress(.function(3))
        case UInt8(ascii: "S"): KeyPress(.function(4))
        case UInt8(ascii: "M"): KeyPress(.enter)
        default: nil
        }
    }

    /// An OSC, DCS, APC, PM or SOS string, up to its terminator (ST or BEL): a terminal's reply,
    /// never a key. A kitty graphics answer (an APC string starting with `G`) is decoded; the
    /// rest are dropped.
    private func skipString(at start: Int, final: Bool) -> Step {
        var index = start + 2
        while index < pending.count {
            if pending[index] == 0x07 {
                return .parsed(stringReply(start: start, end: index), length: index - start + 1)
            }
            if pending[index] == Self.escape, index + 1 < pending.count,
                pending[index + 1] == UInt8(ascii: "\\")
            {
                return .parsed(stringReply(start: start, end: index), length: index - start + 2)
            }
            index += 1
        }
        return final ? .parsed(nil, length: pending.count - start) : .incomplete
    }

    /// The reply in the string from `start` (its `ESC`) to `end` (its terminator), when it is a
    /// kitty graphics answer: `ESC _ G <keys> ; <message>`, the keys naming the image (`i=`).
    private func stringReply(start: Int, end: Int) -> InputEvent? {
        guard pending[start + 1] == UInt8(ascii: "_"), start + 2 < end,
            pending[start + 2] == UInt8(ascii: "G")
        else { return nil }
        let body = pending[(start + 3)..<end]
        let separator = body.firstIndex(of: UInt8(ascii: ";")) ?? body.endIndex
        var id: UInt32 = 0
        for pair in body[body.startIndex..<separator].split(separator: UInt8(ascii: ",")) {
            guard pair.count > 2, pair.first == UInt8(ascii: "i"), pair.dropFirst().first == UInt8(ascii: "=")
            else { continue }
            id = UInt32(String(decoding: pair.dropFirst(2), as: UTF8.self)) ?? 0
        }
        let message = separator < body.endIndex ? body[(separator + 1)...] : body[body.endIndex...]
        // The protocol promises printable ASCII; anything else is not shown as it came.
        let printable = message.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }
        return .reply(.kittyGraphics(id: id, message: String(decoding: printable, as: UTF8.self)))
    }

    private static func numbers(_ bytes: some Collection<UInt8>) -> [Int] {
        bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { part in
            part.reduce(0) { value, digit in
                (0x30...0x39).contains(digit) ? min(value * 10 + Int(digit - 0x30), 1_000_000) : value
            }
        }
    }

    /// xterm's modifier parameter: 1 plus the bits of Shift (1), Alt (2) and Ctrl (4).
    private static func modifiers(_ parameter: Int) -> KeyPress.Modifiers {
        guard parameter > 1 else { return [] }
        return KeyPress.Modifiers(rawValue: UInt8((parameter - 1) & 0x7))
    }

    private static func tildeKey(_ number: Int) -> KeyPress.Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23, 24: .function(number - 12)
        default: nil
        }
    }

    /// `ESC [ < b ; x ; y M` (press, drag, wheel) or `m` (release); x and y count from 1.
    private static func mouse(_ numbers: [Int], released: Bool) -> InputEvent? {
        guard numbers.count == 3, numbers[1] >= 1, numbers[2] >= 1 else { return nil }
        let code = numbers[0]
        var modifiers: KeyPress.Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let kind: MouseEvent.Kind
        if code & 64 != 0 {
            switch code & 3 {
            case 0: kind = .scrollUp
            case 1: kind = .scrollDown
            default: return nil  // horizontal wheels
            }
        } else {
            let button: MouseEvent.Button
            switch code & 3 {
            case 0: button = .left
            case 1: button = .middle
            case 2: button = .right
            default: return nil  // motion without a button
            }
            kind = released ? .release(button) : code & 32 != 0 ? .drag(button) : .press(button)
        }
        return .mouse(MouseEvent(kind, x: numbers[1] - 1, y: numbers[2] - 1, modifiers: modifiers))
    }
}
