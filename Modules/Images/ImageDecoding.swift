import CJPEG
import CPNG
import Foundation

/// Why a picture could not be shown.
public enum ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is neither a JPEG nor a PNG (its first bytes say which format it is).
    case unsupportedFormat
    /// The data starts as `format` but cannot be decoded; the library's reason.
    case damaged(format: String, reason: String)
    /// The picture is larger than ``Bitmap/maximumPixelCount`` allows.
    case tooLarge(width: Int, height: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)

    /// What went wrong, for a placeholder or a status line.
    public var description: String {
        switch self {
        case .unsupportedFormat: "not a JPEG or PNG picture"
        case .damaged(let format, let reason): "damaged \(format): \(reason)"
        case .tooLarge(let width, let height): "\(width)×\(height) pixels is too large to show"
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        }
    }
}

extension Bitmap {
    /// The most pixels a picture may have (64 megapixels): a larger one is refused before any
    /// is decoded, so that a hostile file cannot take the memory.
    nonisolated public static let maximumPixelCount = 64 * 1024 * 1024

    /// Decodes a JPEG (libjpeg-turbo) or a PNG (libpng), told apart by their first bytes.
    ///
    /// A JPEG is decoded straight at the smallest of libjpeg's scales (1/2, 1/4, 1/8) that keeps
    /// it at least `minimumSize`, which makes a photo for a terminal several times cheaper.
    ///
    /// - Throws: ``ImageError/unsupportedFormat`` for other data,
    ///   ``ImageError/damaged(format:reason:)`` for a file that cannot be decoded,
    ///   ``ImageError/tooLarge(width:height:)``.
    public init(data: Data, minimumSize: (width: Int, height: Int)? = nil) throws(ImageError) {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = try Self.decodeJPEG(bytes, minimumSize: minimumSize)
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = try Self.decodePNG(bytes)
        } else {
            throw .unsupportedFormat
        }
    }

    /// Reads and decodes the picture at `path`.
    ///
    /// - Throws: ``ImageError/unreadable(path:reason:)`` when the file cannot be read, or what
    ///   ``init(data:minimumSize:)`` throws.
    public init(contentsOfFile path: String, minimumSize: (width: Int, height: Int)? = nil) throws(ImageError)
    {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        try self.init(data: data, minimumSize: minimumSize)
    }

    private static func decodeJPEG(_ bytes: [UInt8], minimumSize: (width: Int, height: Int)?)
        throws(ImageError)
        -> Bitmap
    {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var fullWidth: UInt32 = 0
        var fullHeight: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let minimumWidth = UInt32(clamping: minimumSize?.width ?? 0)
        let minimumHeight = UInt32(clamping: minimumSize?.height ?? 0)
        let status = bytes.withUnsafeBufferPointer { buffer in
            ribcage_jpeg_decode(
                buffer.baseAddress, UInt(buffer.count), minimumWidth, minimumHeight, UInt(maximumPixelCount),
                &pixels, &width, &height, &fullWidth, &fullHeight, &message, message.count)
        }
        guard status == 0, let pixels else {
            if Int(fullWidth) * Int(fullHeight) > maximumPixelCount {
                throw .tooLarge(width: Int(fullWidth), height: Int(fullHeight))
            }
            throw .damaged(format: "JPEG", reason: Self.text(message))
        }
        defer { free(pixels) }
        let count = Int(width) * Int(height)
        var rgba = [UInt8](repeating: 255, count: count * 4)
        for index in 0..<count {
            rgba[index * 4] = pixels[index * 3]
            rgba[index * 4 + 1] = pixels[index * 3 + 1]
            rgba[index * 4 + 2] = pixels[index * 3 + 2]
        }
        return Bitmap(uncheckedWidth: Int(width), height: Int(height), rgba: rgba)
    }

    /// A C string in a buffer, up to its terminating zero.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func decodePNG(_ bytes: [UInt8]) throws(ImageError) -> Bitmap {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buffer in
            ribcage_png_decode(
                buffer.baseAddress, buffer.count, UInt(maximumPixelCount), &pixels, &width, &height, &message,
                message.count)
        }
        guard status == 0, let pixels else {
            let reason = Self.text(message)
            if reason.contains("more than allowed") {
                let size =
                    reason.split(separator: " ").first?.split(separator: "x").compactMap { Int($0) } ?? []
                throw .tooLarge(width: size.first ?? 0, height: size.last ?? 0)
            }
            throw .damaged(format: "PNG", reason: reason)
        }
        defer { free(pixels) }
        let rgba = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
        return Bitmap(uncheckedWidth: Int(width), height: Int(height), rgba: rgba)
    }
}
