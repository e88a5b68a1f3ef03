import Images

/// A picture the terminal draws itself, over a rectangle of cells, with kitty's graphics
/// protocol: what ``DrawingContext/drawImage(_:x:y:width:height:)`` puts on a canvas when the
/// terminal speaks it, and what `FrameWriter` sends, moves and deletes.
///
/// The terminal draws the picture above the text of its cells. So that a view drawn on top of
/// a picture (a sheet, a popover) stays visible, a placement that something is drawn over
/// after it is *covered*: the renderer then draws that picture again as half blocks in the
/// cells, as on a terminal without graphics.
package struct ImagePlacement: Sendable, Hashable {
    /// The pixels.
    package var bitmap: Bitmap
    /// The cells the whole picture is scaled to, on the canvas.
    package var frame: CellRect
    /// The part of ``frame`` that is shown; smaller when a view clips the picture.
    package var visible: CellRect
    /// Which picture of the frame this is, counting the calls to `drawImage` from 0: what the
    /// renderer's second pass draws as half blocks when it is covered.
    package var ordinal: Int
    /// Whether something was drawn over the visible part after the picture.
    package var isCovered = false

    /// The picture `bitmap` scaled to `frame`, shown in `visible`, the `ordinal`th of its frame.
    package init(bitmap: Bitmap, frame: CellRect, visible: CellRect, ordinal: Int) {
        self.bitmap = bitmap
        self.frame = frame
        self.visible = visible
        self.ordinal = ordinal
    }

    /// The part of the picture shown, in the pixels of a copy of the picture `pixelWidth` by
    /// `pixelHeight`: all of it unless the picture is clipped.
    package func sourceRect(pixelWidth: Int, pixelHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        guard frame.width > 0, frame.height > 0 else { return (0, 0, 0, 0) }
        let left = (visible.x - frame.x) * pixelWidth / frame.width
        let top = (visible.y - frame.y) * pixelHeight / frame.height
        let right = (visible.maxX - frame.x) * pixelWidth / frame.width
        let bottom = (visible.maxY - frame.y) * pixelHeight / frame.height
        return (left, top, right - left, bottom - top)
    }

    /// The same pixels in the same cells. (Two bitmaps that share their storage compare at
    /// once, so a picture that did not change costs nothing to compare.)
    package static func == (lhs: ImagePlacement, rhs: ImagePlacement) -> Bool {
        lhs.frame == rhs.frame && lhs.visible == rhs.visible && lhs.bitmap == rhs.bitmap
    }

    /// Hashes the cells and the bitmap's size, not its pixels.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(frame)
        hasher.combine(visible)
        hasher.combine(bitmap.width)
        hasher.combine(bitmap.height)
    }
}

extension Canvas {
    /// Adds a picture the terminal draws over `placement.visible`. A picture it overlaps is
    /// covered by it.
    package mutating func place(_ placement: ImagePlacement) {
        for index in images.indices where images[index].visible.intersects(placement.visible) {
            images[index].isCovered = true
        }
        images.append(placement)
    }

    /// Marks the pictures under the cell at (`x`, `y`), which is being drawn over, as covered.
    mutating func cover(x: Int, y: Int) {
        for index in images.indices
        where !images[index].isCovered && images[index].visible.contains(x: x, y: y) {
            images[index].isCovered = true
        }
    }
}
