import Foundation
import Images

/// The commands of kitty's terminal graphics protocol that TerminalRuntime writes, as bytes: each an
/// APC string `ESC _ G <keys> ; <base64 payload> ESC \`.
///
/// ```swift
/// output.write(KittyGraphics.transmit(bitmap, id: 7))               // the pixels, once
/// output.write(KittyGraphics.place(id: 7, placement: 1, columns: 40, rows: 12))
/// output.write(KittyGraphics.deletePlacement(id: 7, placement: 1))  // the pixels stay
/// output.write(KittyGraphics.deleteImage(id: 7))                    // the pixels too
/// ```
///
/// Pixels go inline (`t=d`), so that a program over ssh shows them too: 24-bit RGB (`f=24`)
/// when every pixel is opaque, else 32-bit RGBA (`f=32`), base64-encoded and cut into chunks of
/// at most ``maximumChunkSize`` bytes, every chunk but the last marked `m=1`. Every command but
/// the query asks the terminal not to answer (`q=2`), so that nothing comes back on the input;
/// a placement keeps the cursor where it is (`C=1`).
package enum KittyGraphics {
    /// The most base64 bytes one command carries, as the protocol requires.
    package static let maximumChunkSize = 4096

    /// Asks whether the terminal understands the protocol: a query (`a=q`) for a one-pixel RGB
    /// image with `id`, which a terminal that knows the protocol answers with `OK` or an error
    /// and stores nowhere, followed by a primary device attributes request (`ESC [ c`), which
    /// nearly every terminal answers. A device attributes reply with no graphics reply before it
    /// says no; ``KittyGraphicsProbe`` reads the replies.
    package static func query(id: UInt32) -> [UInt8] {
        command("i=\(id),s=1,v=1,a=q,t=d,f=24", payload: "AAAA") + Array("\u{1B}[c".utf8)
    }

    /// Sends `bitmap`'s pixels for the terminal to keep as image `id` (`a=t`), without showing
    /// them; ``place(id:placement:columns:rows:source:)`` shows them.
    package static func transmit(_ bitmap: Bitmap, id: UInt32) -> [UInt8] {
        let opaque = bitmap.isOpaque
        var pixels: [UInt8]
        if opaque {
            pixels = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 3)
            bitmap.rgba.withUnsafeBufferPointer { rgba in
                pixels.withUnsafeMutableBufferPointer { rgb in
                    var target = 0
                    for source in stride(from: 0, to: rgba.count, by: 4) {
                        rgb[target] = rgba[source]
                        rgb[target + 1] = rgba[source + 1]
                        rgb[target + 2] = rgba[source + 2]
                        target += 3
                    }
                }
            }
        } else {
            pixels = bitmap.rgba
        }
        let keys = "a=t,f=\(opaque ? 24 : 32),s=\(bitmap.width),v=\(bitmap.height),i=\(id),t=d,q=2"
        let encoded = Data(pixels).base64EncodedData()
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + (encoded.count / maximumChunkSize + 1) * 16 + keys.count)
        var start = encoded.startIndex
        repeat {
            let end = min(start + maximumChunkSize, encoded.endIndex)
            let more = end < encoded.endIndex ? 1 : 0
            // Only the first chunk carries the image's keys; the others carry `m` alone.
            let chunkKeys = start == encoded.startIndex ? "\(keys),m=\(more)" : "m=\(more)"
            out += command(chunkKeys, payload: encoded[start..<end])
            start = end
        } while start < encoded.endIndex
        return out
    }

    /// Shows image `id` at the cursor, scaled to `columns` by `rows` cells, as placement
    /// `placement` (placing it again with the same numbers replaces it). `source`, in the image's
    /// pixels, shows only that part of it, for a picture that is partly clipped.
    package static func place(
        id: UInt32, placement: UInt32, columns: Int, rows: Int,
        source: (x: Int, y: Int, width: Int, height: Int)? = nil
    ) -> [UInt8] {
        var keys = "a=p,i=\(id),p=\(placement),c=\(columns),r=\(rows)"
        if let source { keys += ",x=\(source.x),y=\(source.y),w=\(source.width),h=\(source.height)" }
        return command(keys + ",C=1,q=2")
    }

    /// Removes placement `placement` of image `id` from the screen; the terminal keeps the
    /// pixels for another placement.
    package static func deletePlacement(id: UInt32, placement: UInt32) -> [UInt8] {
        command("a=d,d=i,i=\(id),p=\(placement),q=2")
    }

    /// Removes image `id`'s placements and frees its pixels.
    package static func deleteImage(id: UInt32) -> [UInt8] {
        command("a=d,d=I,i=\(id),q=2")
    }

    private static func command(_ keys: String, payload: some Collection<UInt8> = [UInt8]()) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(keys.utf8.count + payload.count + 6)
        out += [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
        out += keys.utf8
        if !payload.isEmpty {
            out.append(UInt8(ascii: ";"))
            out += payload
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }

    private static func command(_ keys: String, payload: String) -> [UInt8] {
        command(keys, payload: Array(payload.utf8))
    }
}

extension Bitmap {
    /// Whether every pixel is fully opaque.
    var isOpaque: Bool {
        rgba.withUnsafeBufferPointer { bytes in
            var index = 3
            while index < bytes.count {
                if bytes[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}
