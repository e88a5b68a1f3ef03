import Images
import TerminalCore

extension DrawingContext {
    /// Draws `bitmap` scaled to fit `width` by `height` cells at (`x`, `y`), its aspect ratio
    /// kept and centred: two pixels a cell as a half block `▀` whose foreground is the top pixel
    /// and whose background is the bottom one (a cell is about twice as tall as wide, so the
    /// pixels come out square). The frame writer lowers the colours to what the terminal shows:
    /// the 256-colour cube or grey ramp, or the sixteen colours.
    ///
    /// Where the terminal has no colours or is not UTF-8 (``capabilities``), the picture is
    /// drawn with a ramp of ASCII characters by brightness instead: ` .:-=+*#%@`.
    ///
    /// Transparent pixels leave the cell's background as it is.
    ///
    /// Where the terminal speaks kitty's graphics protocol
    /// (``TerminalCapabilities/kittyGraphics``), the same cells get the picture itself instead: an
    /// `ImagePlacement` on the canvas, which the frame writer sends once and places over the
    /// cells. The cells keep what was drawn under them. If a view is drawn over the picture later
    /// in the frame, the renderer draws the picture as half blocks after all, so that the view
    /// stays visible.
    public mutating func drawImage(
        _ bitmap: Bitmap, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil
    ) {
        let columns = width ?? self.width - x
        let rows = height ?? self.height - y
        guard columns > 0, rows > 0 else { return }
        let ordinal = imageCount
        imageCount += 1
        if capabilities.kittyGraphics, !halfBlockImages.contains(ordinal) {
            // The cells the half blocks would take, so that both ways lay the picture out alike.
            let fitted = bitmap.fittingSize(width: columns, height: rows * 2)
            let cellRows = (fitted.height + 1) / 2
            let frame = CellRect(
                x: origin.x + x + (columns - fitted.width) / 2, y: origin.y + y + (rows - cellRows) / 2,
                width: fitted.width, height: cellRows)
            let visible = frame.intersection(clip)
            guard !visible.isEmpty else { return }
            canvas.place(ImagePlacement(bitmap: bitmap, frame: frame, visible: visible, ordinal: ordinal))
            return
        }
        let asciiOnly = !capabilities.isUnicode || capabilities.colorDepth == .none
        let pixelsPerCell = asciiOnly ? 1 : 2
        let fitted = bitmap.fittingSize(width: columns, height: rows * pixelsPerCell)
        let scaled = bitmap.resized(width: fitted.width, height: fitted.height)
        let cellRows = (fitted.height + pixelsPerCell - 1) / pixelsPerCell
        let left = x + (columns - fitted.width) / 2
        let top = y + (rows - cellRows) / 2
        for row in 0..<cellRows {
            for column in 0..<fitted.width {
                if asciiOnly {
                    let pixel = scaled[column, row]
                    let ramp = Array(" .:-=+*#%@")
                    let character = ramp[min(ramp.count - 1, pixel.luminance * ramp.count / 256)]
                    draw(String(character), x: left + column, y: top + row)
                    continue
                }
                let upper = scaled[column, row * 2]
                let lower = row * 2 + 1 < fitted.height ? scaled[column, row * 2 + 1] : nil
                let style = TextStyle(
                    foreground: upper.alpha < 128 ? nil : .rgb(upper.red, upper.green, upper.blue),
                    background: lower.flatMap { $0.alpha < 128 ? nil : .rgb($0.red, $0.green, $0.blue) })
                if upper.alpha < 128 && (lower?.alpha ?? 0) < 128 { continue }
                if upper.alpha < 128, let lower {
                    draw(
                        "▄", x: left + column, y: top + row,
                        style: TextStyle(foreground: .rgb(lower.red, lower.green, lower.blue)))
                } else {
                    draw("▀", x: left + column, y: top + row, style: style)
                }
            }
        }
    }
}
