/// The start of a Swift source that holds all its imports and `canImport`s: everything up to
/// the end of the last line that spells either.
///
/// An import may only stand at file scope and a `canImport` only in an `#if` condition, and both
/// are spelled out, so nothing after that line can add one. What comes before it nearly always
/// reads as in the whole file; ``ImportScanner/scan(_:)`` checks the few ways it may not, and
/// then parses the whole file. Most of a file is the code below its imports:
/// the region is 2.5 to 23% of the bytes of the listed packages lint is tried on (13% of 38 MB in
/// all), and parsing the rest was most of lint's time in a debug build.
///
/// The search is on text, so it also stops at an `import` in a comment or a string: a longer
/// region, never a shorter one.
package struct ImportRegion {
    /// The region's length in UTF-8 bytes; the whole source when the last line that spells
    /// an import runs to its end.
    package let length: Int

    package init(of source: String) {
        var source = source
        source.makeContiguousUTF8()
        length =
            source.utf8.withContiguousStorageIfAvailable { Self.length(of: $0) } ?? source.utf8.count
    }

    private static func length(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let last = lastSpelling(in: bytes) else { return 0 }
        var end = last
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return min(bytes.count, end + 1)
    }

    /// Where the last `import` (as a word) or `canImport` ends.
    private static func lastSpelling(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let (lower, upper) = (UInt8(ascii: "i"), UInt8(ascii: "I"))
        let rest = Array("mport".utf8)
        var start = bytes.count - 1 - rest.count
        while start >= 0 {
            defer { start -= 1 }
            let first = bytes[start]
            guard first == lower || first == upper,
                rest.indices.allSatisfy({ bytes[start + 1 + $0] == rest[$0] })
            else { continue }
            let end = start + 1 + rest.count
            if first == lower {
                let before = start > 0 ? bytes[start - 1] : UInt8(ascii: " ")
                let after = end < bytes.count ? bytes[end] : UInt8(ascii: " ")
                if !isIdentifierByte(before), !isIdentifierByte(after) { return end }
            } else if start >= 3, Array(bytes[(start - 3)..<start]) == Array("can".utf8) {
                return end
            }
        }
        return nil
    }

    /// An ASCII byte that may be part of an identifier next to `import`. A byte of a
    /// multi-byte character is not one, so `import` next to it counts: a longer region, while
    /// a byte order mark before a file's first import must not hide it.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            true
        default: false
        }
    }
}
