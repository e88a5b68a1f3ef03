import HeadlessUI
import Images
import Layout
import TerminalCore

/// What a terminal with kitty's graphics protocol holds of a program's pictures, as a
/// `FrameWriter` tracks it: the images sent (pixels the terminal keeps, by number) and the
/// placements on screen. Each frame it writes only the difference: a placement that went away or
/// moved is deleted, a new one is placed, and pixels are sent only for a picture the terminal
/// does not hold yet at that size.
///
/// A picture is sent scaled down to the pixels its cells cover
/// (``TerminalCapabilities/cellPixelSize``), never up: the terminal scales it to the cells. Pixels
/// no placement shows stay in the terminal for a while, so that switching back to a tab does not
/// send them again; beyond ``keptHiddenImages`` the oldest are freed.
struct KittyImageLayer: Sendable {
    /// How many images no placement shows stay in the terminal.
    static let keptHiddenImages = 4

    private struct Stored: Sendable {
        let id: UInt32
        let source: Bitmap
        let pixelWidth: Int
        let pixelHeight: Int
        var lastUsed: Int
    }

    private struct Shown: Sendable {
        let placement: ImagePlacement
        let imageID: UInt32
        let placementID: UInt32
    }

    private var stored: [Stored] = []
    private var shown: [Shown] = []
    private var nextImageID: UInt32 = 1
    private var nextPlacementID: UInt32 = 1
    private var frameNumber = 0

    /// How many images the terminal holds for the writer.
    var storedImageCount: Int { stored.count }

    /// Frees every image the terminal holds for the writer (and so their placements): before a
    /// full frame, which sends what it shows again, and when the program ends.
    mutating func removeAll() -> [UInt8] {
        var out: [UInt8] = []
        for image in stored { out += KittyGraphics.deleteImage(id: image.id) }
        stored = []
        shown = []
        return out
    }

    /// The placements that are not in `placements` any more, deleted: written before the
    /// frame's cells.
    mutating func removals(keeping placements: [ImagePlacement]) -> [UInt8] {
        var remaining = placements
        var out: [UInt8] = []
        shown.removeAll { old in
            if let index = remaining.firstIndex(of: old.placement) {
                remaining.remove(at: index)
                return false
            }
            out += KittyGraphics.deletePlacement(id: old.imageID, placement: old.placementID)
            return true
        }
        return out
    }

    /// The pixels and placements `placements` needs that the terminal does not have yet, each
    /// placement after a cursor move to its top-left cell; then the images no placement shows
    /// beyond ``keptHiddenImages``, freed. Written after the frame's cells, after
    /// ``removals(keeping:)``.
    mutating func additions(
        for placements: [ImagePlacement], cellPixelSize: Size, moveCursor: (Int, Int, inout [UInt8]) -> Void
    ) -> [UInt8] {
        frameNumber += 1
        var out: [UInt8] = []
        var alreadyShown = shown.map(\.placement)
        for placement in placements {
            if let index = alreadyShown.firstIndex(of: placement) {
                alreadyShown.remove(at: index)
                if let image = shown.first(where: { $0.placement == placement })?.imageID {
                    touch(image)
                }
                continue
            }
            let size = Self.pixelSize(of: placement, cellPixelSize: cellPixelSize)
            let imageID: UInt32
            if let index = stored.firstIndex(where: {
                $0.pixelWidth == size.width && $0.pixelHeight == size.height && $0.source == placement.bitmap
            }) {
                imageID = stored[index].id
                stored[index].lastUsed = frameNumber
            } else {
                imageID = takeImageID()
                let pixels =
                    size.width == placement.bitmap.width && size.height == placement.bitmap.height
                    ? placement.bitmap : placement.bitmap.resized(width: size.width, height: size.height)
                out += KittyGraphics.transmit(pixels, id: imageID)
                stored.append(
                    Stored(
                        id: imageID, source: placement.bitmap, pixelWidth: size.width,
                        pixelHeight: size.height,
                        lastUsed: frameNumber))
            }
            let placementID = nextPlacementID
            nextPlacementID = Self.after(nextPlacementID)
            moveCursor(placement.visible.x, placement.visible.y, &out)
            let source =
                placement.visible == placement.frame
                ? nil : placement.sourceRect(pixelWidth: size.width, pixelHeight: size.height)
            out += KittyGraphics.place(
                id: imageID, placement: placementID, columns: placement.visible.width,
                rows: placement.visible.height, source: source)
            shown.append(Shown(placement: placement, imageID: imageID, placementID: placementID))
        }
        out += evictHiddenImages()
        return out
    }

    private mutating func touch(_ imageID: UInt32) {
        if let index = stored.firstIndex(where: { $0.id == imageID }) { stored[index].lastUsed = frameNumber }
    }

    private mutating func takeImageID() -> UInt32 {
        // Skips numbers still held, after a wrap-around in a very long run.
        while stored.contains(where: { $0.id == nextImageID }) { nextImageID = Self.after(nextImageID) }
        defer { nextImageID = Self.after(nextImageID) }
        return nextImageID
    }

    /// The next number, 0 excluded (the protocol's "no number").
    private static func after(_ number: UInt32) -> UInt32 {
        number == UInt32.max ? 1 : number + 1
    }

    private mutating func evictHiddenImages() -> [UInt8] {
        let inUse = Set(shown.map(\.imageID))
        let hidden = stored.filter { !inUse.contains($0.id) }.sorted { $0.lastUsed > $1.lastUsed }
        guard hidden.count > Self.keptHiddenImages else { return [] }
        let freed = Set(hidden.dropFirst(Self.keptHiddenImages).map(\.id))
        stored.removeAll { freed.contains($0.id) }
        return freed.sorted().flatMap(KittyGraphics.deleteImage(id:))
    }

    /// The pixels sent for `placement`: its bitmap fitted into the pixels its cells cover, and
    /// never larger than the bitmap.
    static func pixelSize(of placement: ImagePlacement, cellPixelSize: Size) -> (width: Int, height: Int) {
        let bitmap = placement.bitmap
        let coveredWidth = placement.frame.width * max(1, Int(cellPixelSize.width))
        let coveredHeight = placement.frame.height * max(1, Int(cellPixelSize.height))
        guard bitmap.width > coveredWidth || bitmap.height > coveredHeight else {
            return (bitmap.width, bitmap.height)
        }
        return bitmap.fittingSize(width: coveredWidth, height: coveredHeight)
    }
}
