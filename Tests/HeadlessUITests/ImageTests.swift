import Foundation
import HeadlessUI
import HeadlessUITesting
import Images
import Layout
import Testing

@Suite("Images drawn as half blocks, or a placeholder with the reason")
struct ImageTests {
    /// Pictures made by ImagesTests' `Images/make_images.py`, copied here for the views' tests.
    private func file(_ name: String) -> String {
        URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Images/\(name)").path
    }

    private func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: file(name)))
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
