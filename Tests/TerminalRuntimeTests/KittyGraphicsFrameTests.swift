import HeadlessUI
import HeadlessUITesting
import Images
import Layout
import TerminalCore
import TerminalRuntime
import Testing

/// A picture and a status line, with frames set by hand so that tests can move, hide and cover
/// the picture.
@MainActor
private final class PictureScreen: ViewController {
    let picture = ImageView()
    let status = Label("ready")
    let cover = BoxView()

    init(bitmap: Bitmap) {
        super.init()
        picture.bitmap = bitmap
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        for subview in [picture, status, cover] { view.addSubview(subview) }
        picture.frame = Rect(x: 2, y: 1, width: 20, height: 6)
        status.frame = Rect(x: 0, y: 9, width: 30, height: 1)
        cover.frame = Rect(x: 8, y: 2, width: 10, height: 3)
        cover.isHidden = true
    }
}

@MainActor
@Suite("Kitty graphics in frames: sent once, placed over the cells, moved and deleted with the view")
struct KittyGraphicsFrameTests {
    /// An opaque 16×8 picture whose pixels depend on `seed`.
    private static func bitmap(seed: Int = 0, width: Int = 16, height: Int = 8) throws -> Bitmap {
        var rgba: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                rgba += [UInt8((x * 16 + seed) & 0xFF), UInt8((y * 32) & 0xFF), UInt8(seed & 0xFF), 255]
            }
        }
        return try #require(Bitmap(width: width, height: height, rgba: rgba))
    }

    private func pilot(kittyGraphics: Bool, bitmap: Bitmap? = nil) throws -> (TerminalPilot, PictureScreen) {
        let screen = PictureScreen(bitmap: try bitmap ?? Self.bitmap())
        let window = Window(size: Size(width: 30, height: 10))
        window.rootViewController = screen
        let pilot = TerminalPilot(
            window: window, size: Size(width: 30, height: 10), kittyGraphics: kittyGraphics)
        return (pilot, screen)
    }

    private func actions(_ step: TerminalPilot.Step?) -> [String] {
        (step?.graphicsCommands ?? []).map {
            String($0.prefix(while: { $0 != "," })) + ($0.contains("d=I") ? "I" : "")
        }
    }

    @Test func onAKittyTerminalThePictureIsSentOnceAndOnlyAChangeWritesAgain() throws {
        let (pilot, screen) = try pilot(kittyGraphics: true)
        #expect(pilot.application.capabilities.kittyGraphics, "the virtual kitty answered the query")
        let start = pilot.steps.last
        #expect(start?.graphicsCommands.first?.hasPrefix("a=t,f=24,s=16,v=8,") == true)
        #expect(actions(start) == ["a=t", "a=p"])
        // 16×8 pixels fitted to 20×6 cells, two pixels a cell: 20×5 cells, a row down to centre.
        #expect(
            pilot.terminal.graphics.placements.map(\.cells) == [CellRect(x: 2, y: 1, width: 20, height: 5)])
        #expect(!pilot.screen.contains("▀"), "no half blocks under the picture")

        screen.status.text = "saved"
        pilot.redraw(label: "the status changes")
        #expect(pilot.steps.last?.graphicsCommands == [])
        #expect(pilot.screen.contains("saved"))
        pilot.redraw(label: "nothing changes")
        #expect(pilot.steps.last?.bytesWritten == 0)

        screen.picture.frame.origin.x = 8
        pilot.redraw(label: "the picture moves")
        #expect(actions(pilot.steps.last) == ["a=d", "a=p"], "moved, not sent again")
        #expect(
            pilot.terminal.graphics.placements.map(\.cells) == [CellRect(x: 8, y: 1, width: 20, height: 5)])

        screen.picture.isHidden = true
        pilot.redraw(label: "the picture hides")
        #expect(actions(pilot.steps.last) == ["a=d"])
        #expect(pilot.terminal.graphics.placements.isEmpty)

        screen.picture.isHidden = false
        pilot.redraw(label: "the picture shows again")
        #expect(actions(pilot.steps.last) == ["a=p"], "the terminal kept the pixels")

        pilot.resize(to: Size(width: 40, height: 12))
        #expect(actions(pilot.steps.last) == ["a=dI", "a=t", "a=p"], "a full frame sends everything again")
        #expect(pilot.terminal.graphics.transmissions == 2)
        #expect(pilot.terminal.graphics.images.count == 1)
        #expect(pilot.terminal.graphics.errors.isEmpty)
    }

    @Test func onATerminalWithoutGraphicsThePictureIsHalfBlocksAndNoCommandIsWritten() throws {
        let (pilot, screen) = try pilot(kittyGraphics: false)
        #expect(!pilot.application.capabilities.kittyGraphics)
        #expect(pilot.screen.contains("▀"))
        screen.picture.frame.origin.x = 8
        pilot.redraw(label: "the picture moves")
        pilot.resize(to: Size(width: 40, height: 12))
        #expect(pilot.steps.allSatisfy { $0.graphicsCommands.isEmpty })
        #expect(pilot.terminal.graphics.placements.isEmpty)
    }

    @Test func aViewDrawnOverThePictureStaysVisibleAndThePictureTurnsToHalfBlocks() throws {
        let (pilot, screen) = try pilot(kittyGraphics: true)
        screen.cover.isHidden = false
        pilot.redraw(label: "a box covers the picture")
        #expect(actions(pilot.steps.last) == ["a=d"])
        #expect(pilot.terminal.graphics.placements.isEmpty)
        #expect(pilot.screen.contains("▀") && pilot.screen.contains("┌────────┐"))
        screen.cover.isHidden = true
        pilot.redraw(label: "the box goes")
        #expect(actions(pilot.steps.last) == ["a=p"])
        #expect(!pilot.screen.contains("▀"))
    }

    @Test func aClippedPictureShowsOnlyThePixelsOfItsVisibleCells() throws {
        let (pilot, screen) = try pilot(kittyGraphics: true, bitmap: try Self.bitmap(width: 40, height: 20))
        let clip = View(frame: Rect(x: 0, y: 0, width: 12, height: 10))
        screen.view.addSubview(clip)
        clip.addSubview(screen.picture)
        screen.picture.frame = Rect(x: 2, y: 1, width: 20, height: 6)
        pilot.redraw(label: "the picture is clipped at column 12")
        // 40×20 pixels fitted to 20×12 half cells: 20×10, so 20×5 cells, of which 10 show.
        let placement = pilot.terminal.graphics.placements.first
        #expect(placement?.cells == CellRect(x: 2, y: 1, width: 10, height: 5))
        #expect(
            placement?.source == CellRect(x: 0, y: 0, width: 20, height: 20), "the left half of the 40 pixels"
        )
    }

    @Test func aLargePictureIsSentAtThePixelsItsCellsCover() throws {
        let window = Window(size: Size(width: 30, height: 10))
        let screen = PictureScreen(bitmap: try Self.bitmap(width: 400, height: 200))
        window.rootViewController = screen
        let pilot = TerminalPilot(
            window: window, size: Size(width: 30, height: 10),
            capabilities: TerminalCapabilities(cellPixelSize: Size(width: 8, height: 16)), kittyGraphics: true
        )
        // 20×5 cells of 8×16 pixels: 160×80, the picture's own aspect ratio.
        #expect(pilot.steps.first?.graphicsCommands.first?.hasPrefix("a=t,f=24,s=160,v=80,") == true)
        let image = pilot.terminal.graphics.images.values.first
        #expect(image?.width == 160 && image?.pixels.count == 160 * 80 * 3)
    }

    @Test func picturesNoLongerShownAreFreedBeyondTheFourMostRecent() throws {
        let (pilot, screen) = try pilot(kittyGraphics: true, bitmap: try Self.bitmap(seed: 0))
        for seed in 1...5 {
            screen.picture.bitmap = try Self.bitmap(seed: seed)
            pilot.redraw(label: "picture \(seed)")
        }
        #expect(pilot.terminal.graphics.transmissions == 6)
        #expect(pilot.terminal.graphics.images.count == 5, "the one shown and four hidden")
        #expect(actions(pilot.steps.last) == ["a=d", "a=t", "a=p", "a=dI"])
        screen.picture.bitmap = try Self.bitmap(seed: 4)
        pilot.redraw(label: "back to picture 4")
        #expect(actions(pilot.steps.last) == ["a=d", "a=p"], "still held: placed without sending it")
    }
}
