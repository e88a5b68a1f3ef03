/// Decoded pixels: 8-bit RGBA, row by row from the top-left corner.
///
/// ```swift
/// let photo = try Bitmap(data: jpegData)              // libjpeg-turbo or libpng
/// let small = photo.resized(width: 80, height: 48)    // an area average
/// ```
public struct Bitmap: Sendable, Hashable {
    /// One pixel.
    public struct Pixel: Sendable, Hashable {
        /// Red, 0–255.
        public var red: UInt8
        /// Green, 0–255.
        public var green: UInt8
        /// Blue, 0–255.
        public var blue: UInt8
        /// Opacity, 0 (clear) to 255 (opaque).
        public var alpha: UInt8

        /// A pixel of the given channels.
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        /// The perceived brightness, 0–255 (Rec. 601 weights), after compositing on black.
        public var luminance: Int {
            (299 * Int(red) + 587 * Int(green) + 114 * Int(blue)) * Int(alpha) / (1000 * 255)
        }
    }

    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public let rgba: [UInt8]

    /// A bitmap of `width` by `height` RGBA pixels; `nil` when `rgba` is not that size.
    public init?(width: Int, height: Int, rgba: [UInt8]) {
        guard width >= 0, height >= 0, rgba.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Pixel {
        let index = (y * width + x) * 4
        return Pixel(red: rgba[index], green: rgba[index + 1], blue: rgba[index + 2], alpha: rgba[index + 3])
    }

    /// The bitmap scaled to `width` by `height`, each new pixel the average of the area it
    /// covers (weighted by opacity), so that thin lines and small details fade rather than
    /// vanish or alias.
    public func resized(width newWidth: Int, height newHeight: Int) -> Bitmap {
        let targetWidth = max(0, newWidth)
        let targetHeight = max(0, newHeight)
        guard width > 0, height > 0, targetWidth > 0, targetHeight > 0 else {
            return Bitmap(
                uncheckedWidth: targetWidth, height: targetHeight,
                rgba: Array(repeating: 0, count: targetWidth * targetHeight * 4))
        }
        var out = [UInt8](repeating: 0, count: targetWidth * targetHeight * 4)
        let columns = Self.spans(from: width, to: targetWidth)
        let rows = Self.spans(from: height, to: targetHeight)
        rgba.withUnsafeBufferPointer { source in
            for (ty, rowSpan) in rows.enumerated() {
                for (tx, columnSpan) in columns.enumerated() {
                    var red = 0
                    var green = 0
                    var blue = 0
                    var alpha = 0
                    for y in rowSpan {
                        var index = (y * width + columnSpan.lowerBound) * 4
                        for _ in columnSpan {
                            let a = Int(source[index + 3])
                            red += Int(source[index]) * a
                            green += Int(source[index + 1]) * a
                            blue += Int(source[index + 2]) * a
                            alpha += a
                            index += 4
                        }
                    }
                    let count = rowSpan.count * columnSpan.count
                    let target = (ty * targetWidth + tx) * 4
                    if alpha > 0 {
                        out[target] = UInt8(red / alpha)
                        out[target + 1] = UInt8(green / alpha)
                        out[target + 2] = UInt8(blue / alpha)
                    }
                    out[target + 3] = UInt8(alpha / max(1, count))
                }
            }
        }
        return Bitmap(uncheckedWidth: targetWidth, height: targetHeight, rgba: out)
    }

    /// The size that fits in `width` by `height` with this bitmap's aspect ratio kept.
    public func fittingSize(width maxWidth: Int, height maxHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0, maxWidth > 0, maxHeight > 0 else { return (0, 0) }
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        return (
            max(1, min(maxWidth, Int((Double(width) * scale).rounded()))),
            max(1, min(maxHeight, Int((Double(height) * scale).rounded())))
        )
    }

    init(uncheckedWidth width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The source indices each target index averages: at least one each, covering the source.
    private static func spans(from source: Int, to target: Int) -> [Range<Int>] {
        (0..<target).map { index in
            let start = index * source / target
            let end = max(start + 1, (index + 1) * source / target)
            return start..<min(source, end)
        }
    }
}
