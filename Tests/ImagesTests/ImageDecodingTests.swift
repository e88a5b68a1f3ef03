import Foundation
import Images
import Testing

@Suite("Images: JPEG and PNG through libjpeg-turbo and libpng")
struct ImageDecodingTests {
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
}
