import Foundation
import HeadlessUI
import HeadlessUITesting
import Layout
import Testing

@Suite("Images: JPEG and PNG through libjpeg-turbo and libpng, drawn as half blocks")
struct ImageTests {
    private func file(_ name: String) -> String {
        URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Images/\(name)").path
    }

    private func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: file(name)))
    }

    @Test func aPNGDecodesToItsPixels() throws {
        let bitmap = try Bitmap(contentsOfFile: file("quadrants-16x16.png"))
        #expect(bitmap.width == 16 && bitmap.height == 16)
        #expect(bitmap[0, 0] == Bitmap.Pixel(red: 255, green: 0, blue: 0))
        #expect(bitmap[15, 0] == Bitmap.Pixel(red: 0, green: 255, blue: 0))
        #expect(bitmap[0, 15] == Bitmap.Pixel(red: 0, green: 0, blue: 255))
        #expect(bitmap[15, 15] == Bitmap.Pixel(red: 255, green: 255, blue: 255))
        let fade = try Bitmap(contentsOfFile: file("fade-8x4-alpha.png"))
        #expect(fade[0, 0].alpha == 0)
        #expect(fade[7, 3].alpha == 255)
    }

    @Test func aJPEGDecodesCloseToItsPixelsAndScalesWhileDecoding() throws {
        let bitmap = try Bitmap(contentsOfFile: file("quadrants-16x16.jpg"))
        #expect(bitmap.width == 16 && bitmap.height == 16)
        let red = bitmap[2, 2]
        #expect(red.red > 220 && red.green < 40 && red.blue < 40)
        let blue = bitmap[2, 13]
        #expect(blue.blue > 220 && blue.red < 40)
        let photo = try data("sunset-640x480.jpg")
        #expect(try Bitmap(data: photo).width == 640)
        let scaled = try Bitmap(data: photo, minimumSize: (80, 48))
        #expect(scaled.width == 80 && scaled.height == 60)  // 1/8, the smallest at least 80x48
    }

    @Test func damagedAndUnsupportedFilesAreTypedErrors() throws {
        #expect(throws: ImageError.unsupportedFormat) { try Bitmap(data: try data("not-an-image.gif")) }
        #expect(throws: ImageError.unsupportedFormat) { try Bitmap(data: Data()) }
        for name in ["damaged-truncated.jpg", "damaged-truncated.png", "damaged-crc.png"] {
            let bytes = try data(name)
            do throws(ImageError) {
                _ = try Bitmap(data: bytes)
                Issue.record("\(name) decoded")
            } catch {
                guard case .damaged(let format, let reason) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(format == (name.hasSuffix("jpg") ? "JPEG" : "PNG"))
                #expect(!reason.isEmpty)
            }
        }
        #expect(throws: ImageError.self) { try Bitmap(contentsOfFile: "/nonexistent/picture.png") }
    }

    @Test func aHugeDeclaredSizeIsRefusedBeforeDecoding() throws {
        // A PNG header that claims 30000x30000 pixels, with no data behind it.
        var png = try data("quadrants-16x16.png")
        png.replaceSubrange(16..<24, with: [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30])
        #expect(throws: ImageError.self) { try Bitmap(data: png) }
    }

    @Test func resizingAveragesAreasAndFittingKeepsTheAspectRatio() throws {
        let bitmap = try Bitmap(contentsOfFile: file("quadrants-16x16.png"))
        let two = bitmap.resized(width: 2, height: 2)
        #expect(two[0, 0] == Bitmap.Pixel(red: 255, green: 0, blue: 0))
        #expect(two[1, 1] == Bitmap.Pixel(red: 255, green: 255, blue: 255))
        let one = bitmap.resized(width: 1, height: 1)[0, 0]
        #expect(one.red == 127 && one.green == 127 && one.blue == 127)
        let photo = try Bitmap(contentsOfFile: file("sunset-64x48.jpg"))
        #expect(
            photo.fittingSize(width: 80, height: 48) == (64, 48)
                || photo.fittingSize(width: 80, height: 48).height == 48)
        #expect(photo.fittingSize(width: 20, height: 100).width == 20)
        #expect(photo.fittingSize(width: 20, height: 100).height == 15)
    }

    @MainActor
    @Test func anImageViewDrawsHalfBlocksWithTopAndBottomColours() throws {
        let view = ImageView()
        try view.setImageData(try data("quadrants-16x16.png"))
        let window = Window(size: Size(width: 8, height: 4))
        window.rootViewController = ViewController()
        window.rootViewController?.view.addSubview(view)
        view.frame = Rect(x: 0, y: 0, width: 8, height: 4)
        window.makeKeyAndVisible()
        let canvas = window.render()
        // 8x8 pixels in 8x4 cells: each cell is a top and a bottom pixel.
        #expect(canvas[0, 0].character == "▀")
        #expect(canvas[0, 0].style.foreground == .rgb(255, 0, 0))
        #expect(canvas[0, 0].style.background == .rgb(255, 0, 0))
        #expect(canvas[7, 3].style.foreground == .rgb(255, 255, 255))
        #expect(canvas[0, 3].style.background == .rgb(0, 0, 255))
        window.capabilities = TerminalCapabilities(colorDepth: .none, isUnicode: false)
        let ascii = window.render()
        #expect(ascii.lines[0].allSatisfy { " .:-=+*#%@".contains($0) })
        #expect(ascii.lines[3].hasSuffix("@"))
    }

    @MainActor
    @Test func aDamagedPictureShowsAPlaceholderWithTheReason() throws {
        let view = ImageView(caption: "Shiba")
        #expect(throws: ImageError.self) { try view.setImageData(try data("damaged-truncated.jpg")) }
        #expect(view.bitmap == nil)
        let window = Window(size: Size(width: 40, height: 6))
        window.rootViewController = ViewController()
        window.rootViewController?.view.addSubview(view)
        view.frame = Rect(x: 0, y: 0, width: 40, height: 6)
        window.makeKeyAndVisible()
        let text = window.render().text()
        #expect(text.contains("Shiba"))
        #expect(text.contains("damaged JPEG"))
    }
}
