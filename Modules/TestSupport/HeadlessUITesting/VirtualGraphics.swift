import Foundation
import HeadlessUI
import TerminalCore
import TerminalRuntime

/// What a ``VirtualTerminal`` holds of kitty's graphics protocol: the images sent to it, the
/// placements on its screen, every graphics command it was given, and what broke the protocol.
/// A terminal that does not speak the protocol (``isEnabled`` off) ignores the commands, as
/// real terminals ignore APC strings, but still lists them, so that a test can check none were
/// written.
///
/// ```swift
/// var terminal = VirtualTerminal(width: 80, height: 24, kittyGraphics: true)
/// terminal.apply(writer.frame(canvas))
/// #expect(terminal.graphics.placements.map(\.cells) == canvas.images.map(\.visible))
/// #expect(terminal.graphics.errors.isEmpty)
/// ```
public struct VirtualGraphics: Sendable {
    /// An image the terminal holds.
    public struct Image: Sendable, Hashable {
        /// Its number (`i=`).
        public var id: UInt32
        /// Its width in pixels (`s=`).
        public var width: Int
        /// Its height in pixels (`v=`).
        public var height: Int
        /// 24 (RGB) or 32 (RGBA) bits a pixel (`f=`).
        public var format: Int
        /// The decoded pixels, `width × height × format / 8` bytes.
        public var pixels: [UInt8]
    }

    /// An image shown on the screen.
    public struct Placement: Sendable, Hashable {
        /// The image shown.
        public var imageID: UInt32
        /// The placement's number (`p=`), 0 when none was given.
        public var placementID: UInt32
        /// The cells it is scaled to: the cursor's cell when it was placed, `c=` columns by `r=`
        /// rows.
        package var cells: CellRect
        /// The part of the image shown (`x`, `y`, `w`, `h`), in its pixels.
        package var source: CellRect
    }

    /// Whether the terminal speaks the protocol: it answers queries, keeps images and shows
    /// them.
    public var isEnabled: Bool
    /// The images held, by number.
    public private(set) var images: [UInt32: Image] = [:]
    /// The placements on the screen, oldest first.
    public private(set) var placements: [Placement] = []
    /// Every graphics command given, as its keys (`a=p,i=1,…`), in order; a chunk's payload is
    /// left out.
    public private(set) var commands: [String] = []
    /// How many images were sent in full (their last chunk received).
    public private(set) var transmissions = 0
    /// What the terminal found wrong: a chunk over 4096 bytes, pixels that do not match the size,
    /// a placement of an image it does not hold, bad base64.
    public private(set) var errors: [String] = []

    private var loading: (keys: [String: String], payload: [UInt8])?

    init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// Clears the placements, as `ESC [ 2 J` and a switch of screens do; the images stay.
    mutating func clearPlacements() {
        placements.removeAll()
    }

    /// Interprets one graphics command (the APC string's body after `G`) given with the cursor
    /// at `cursor`; returns the terminal's answer, if any.
    mutating func apply(_ body: ArraySlice<UInt8>, cursor: Canvas.Position) -> [UInt8] {
        let separator = body.firstIndex(of: UInt8(ascii: ";")) ?? body.endIndex
        let keyText = String(decoding: body[body.startIndex..<separator], as: UTF8.self)
        let payload = separator < body.endIndex ? Array(body[(separator + 1)...]) : []
        commands.append(keyText)
        guard isEnabled else { return [] }
        var keys: [String: String] = [:]
        for pair in keyText.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else {
                errors.append("a key without a value: \(pair)")
                continue
            }
            keys[String(parts[0])] = String(parts[1])
        }
        if payload.count > KittyGraphics.maximumChunkSize {
            errors.append("a chunk of \(payload.count) bytes, over \(KittyGraphics.maximumChunkSize)")
        }
        if var loading {
            // A later chunk: only `m` (and `q`) may come with it.
            if !Set(keys.keys).isSubset(of: ["m", "q"]) {
                errors.append("a later chunk with keys \(keyText)")
            }
            loading.payload += payload
            if keys["m"] == "1" {
                self.loading = loading
                return []
            }
            self.loading = nil
            return run(loading.keys, payload: loading.payload, cursor: cursor)
        }
        if keys["m"] == "1" {
            loading = (keys, payload)
            return []
        }
        return run(keys, payload: payload, cursor: cursor)
    }

    private mutating func run(_ keys: [String: String], payload: [UInt8], cursor: Canvas.Position) -> [UInt8]
    {
        let id = keys["i"].flatMap { UInt32($0) } ?? 0
        switch keys["a"] ?? "t" {
        case "q":
            let ok = decodeImage(keys, payload: payload) != nil
            return Array("\u{1B}_Gi=\(id);\(ok ? "OK" : "EINVAL:bad image")\u{1B}\\".utf8)
        case "t", "T":
            guard let image = decodeImage(keys, payload: payload) else { return [] }
            transmissions += 1
            images[id] = image
            if keys["a"] == "T" { place(keys, cursor: cursor) }
        case "p":
            place(keys, cursor: cursor)
        case "d":
            delete(keys)
        default:
            errors.append("an unknown action: \(keys["a"] ?? "")")
        }
        return []
    }

    private mutating func decodeImage(_ keys: [String: String], payload: [UInt8]) -> Image? {
        let id = keys["i"].flatMap { UInt32($0) } ?? 0
        let format = keys["f"].flatMap { Int($0) } ?? 32
        guard let width = keys["s"].flatMap({ Int($0) }), let height = keys["v"].flatMap({ Int($0) }),
            format == 24 || format == 32
        else {
            errors.append("image \(id): no size or an unknown format")
            return nil
        }
        guard let data = Data(base64Encoded: Data(payload)) else {
            errors.append("image \(id): the payload is not base64")
            return nil
        }
        guard data.count == width * height * format / 8 else {
            errors.append("image \(id): \(data.count) bytes for \(width)x\(height) at \(format) bits")
            return nil
        }
        return Image(id: id, width: width, height: height, format: format, pixels: Array(data))
    }

    private mutating func place(_ keys: [String: String], cursor: Canvas.Position) {
        let id = keys["i"].flatMap { UInt32($0) } ?? 0
        guard let image = images[id] else {
            errors.append("a placement of image \(id), which the terminal does not hold")
            return
        }
        func number(_ key: String, _ fallback: Int) -> Int { keys[key].flatMap { Int($0) } ?? fallback }
        let placementID = keys["p"].flatMap { UInt32($0) } ?? 0
        let source = CellRect(
            x: number("x", 0), y: number("y", 0), width: number("w", image.width),
            height: number("h", image.height))
        if source.maxX > image.width || source.maxY > image.height {
            errors.append("placement \(placementID) of image \(id) shows pixels outside it")
        }
        let placement = Placement(
            imageID: id, placementID: placementID,
            cells: CellRect(x: cursor.x, y: cursor.y, width: number("c", 1), height: number("r", 1)),
            source: source)
        if placementID != 0 {
            placements.removeAll { $0.imageID == id && $0.placementID == placementID }
        }
        placements.append(placement)
    }

    private mutating func delete(_ keys: [String: String]) {
        let id = keys["i"].flatMap { UInt32($0) } ?? 0
        switch keys["d"] ?? "a" {
        case "a":
            placements.removeAll()
        case "A":
            let shown = Set(placements.map(\.imageID))
            placements.removeAll()
            for id in shown { images[id] = nil }
        case "i", "I":
            let placementID = keys["p"].flatMap { UInt32($0) }
            placements.removeAll { $0.imageID == id && (placementID == nil || $0.placementID == placementID) }
            if keys["d"] == "I" { images[id] = nil }
        default:
            errors.append("a deletion this terminal does not know: d=\(keys["d"] ?? "")")
        }
    }
}
