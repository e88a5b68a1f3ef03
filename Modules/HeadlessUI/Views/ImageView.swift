import Foundation
import Images
import Layout
import TerminalCore

/// What a terminal knows about a picture: where it lives and, when known, its size in pixels.
public struct Image: Sendable, Hashable {
    /// The picture's address.
    public var url: String
    /// Its width and height in pixels, when known.
    public var pixelSize: Size?

    /// Describes the picture at `url`, of `pixelSize` when known.
    public init(url: String, pixelSize: Size? = nil) {
        self.url = url
        self.pixelSize = pixelSize
    }
}

/// A picture, drawn with half-block cells, or a captioned box that stands in for it, as
/// `UIImageView`.
///
/// ```swift
/// let view = ImageView(image: Image(url: photo.url), caption: "Shiba")
/// view.setImageData(downloaded)       // decoded with libjpeg-turbo or libpng
/// ```
///
/// With a ``bitmap`` it draws the pixels scaled to fit, their aspect ratio kept
/// (``DrawingContext/drawImage(_:x:y:width:height:)``), and the caption under them. Without
/// one, or when the data could not be decoded (``failure``), it draws the box:
///
/// ```text
/// ╭──────────────────────────╮
/// │          Shiba           │
/// │ https://…/shiba/1.jpg    │
/// │       1024 × 768 px      │
/// ╰──────────────────────────╯
/// ```
///
/// Its intrinsic size is wide enough for the caption and the size line, and, when the pixel
/// size is known, tall enough to keep the picture's aspect ratio (a cell is about twice as tall
/// as it is wide).
open class ImageView: View, Drawable {
    /// The picture, or `nil` to draw an empty box.
    public var image: Image? {
        didSet { if image != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// A line of text about the picture, such as its subject.
    public var caption: String? {
        didSet { if caption != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// The decoded pixels to draw; `nil` draws the box with the caption instead.
    public var bitmap: Bitmap? {
        didSet { if bitmap != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// Why the picture could not be shown, drawn in the box in place of the picture.
    public var failure: ImageError? {
        didSet { if failure != oldValue { invalidateIntrinsicContentSize() } }
    }
    /// The border's characters.
    public var border = BorderStyle.rounded
    /// How the caption is drawn.
    public var captionStyle = TextStyle(isBold: true)

    /// The narrowest intrinsic width, in cells.
    nonisolated public static let minimumWidth = 24

    /// Creates an image view showing `image` with a `caption`.
    public init(image: Image? = nil, caption: String? = nil) {
        self.image = image
        self.caption = caption
        super.init(frame: .zero)
    }

    /// Decodes `data` (a JPEG or a PNG) and shows it. When it cannot be decoded the view shows
    /// the reason in its box instead, and the error is thrown for the caller to report.
    public func setImageData(_ data: Data) throws(ImageError) {
        do {
            bitmap = try Bitmap(data: data)
            failure = nil
        } catch {
            bitmap = nil
            failure = error
            throw error
        }
    }

    /// The lines inside the box: caption, address and pixel size, those that are known, and
    /// why the picture failed.
    package var contentLines: [String] {
        var lines: [String] = []
        if let caption, !caption.isEmpty { lines.append(caption) }
        if let failure { lines.append("⚠ \(failure)") }
        if let image {
            lines.append(image.url)
            if let size = image.pixelSize {
                lines.append("\(Int(size.width.rounded())) × \(Int(size.height.rounded())) px")
            }
        }
        if lines.isEmpty { lines.append("no image") }
        return lines
    }

    /// Wide enough for every line but the address (which is shortened in the middle), tall enough
    /// for the lines and the picture's aspect ratio.
    open override var intrinsicContentSize: Size {
        let lines = contentLines
        let address = image?.url
        let widest = lines.filter { $0 != address }.map(\.terminalWidth).max() ?? 0
        let width = max(Self.minimumWidth, widest + 4)
        var height = lines.count + 2
        if let bitmap, bitmap.width > 0 {
            let captionRows = (caption?.isEmpty ?? true) ? 0 : 1
            height =
                Int((Double(width) * Double(bitmap.height) / Double(bitmap.width) / 2).rounded())
                + captionRows
        } else if let size = image?.pixelSize, size.width > 0 {
            height = max(height, Int((Double(width) * size.height / size.width / 2).rounded()))
        }
        return Size(width: Double(width), height: Double(height))
    }

    /// Draws the picture with its caption under it, or the box and its lines, centred
    /// vertically and horizontally.
    open func draw(in context: inout DrawingContext) {
        if let bitmap {
            let captionRows = (caption?.isEmpty ?? true) ? 0 : 1
            context.drawImage(bitmap, width: context.width, height: context.height - captionRows)
            if let caption, captionRows > 0 {
                context.drawLine(caption, y: context.height - 1, alignment: .center, style: captionStyle)
            }
            return
        }
        context.drawBox(border: border)
        let lines = contentLines
        let room = context.width - 4
        guard room > 0, context.height > 2 else { return }
        let top = 1 + max(0, (context.height - 2 - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < context.height - 1 {
            let isAddress = line == image?.url
            let fitted = TextLayout.truncate(
                line, to: room, mode: isAddress ? .byTruncatingMiddle : .byTruncatingTail)
            let x = 2 + (room - fitted.terminalWidth) / 2
            let style = index == 0 && caption != nil ? captionStyle : TextStyle(isDim: isAddress)
            context.draw(fitted, x: x, y: top + index, style: style)
        }
    }
}
