import Foundation

/// `gzip` (RFC 1952) and `zlib` (RFC 1950) containers around DEFLATE "stored" blocks
/// (RFC 1951 §3.2.4): valid compressed streams that every inflater reads, made without a
/// compression library. A test that needs truly compressed bytes ships them as a fixture.
enum Deflate {
    /// `data` as a gzip member.
    static func gzip(_ data: Data) -> Data {
        // Magic, deflate, no flags, no modification time, no extra flags, unknown OS.
        var out = Data([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        out.append(storedBlocks(data))
        out.append(littleEndian(crc32(data)))
        out.append(littleEndian(UInt32(truncatingIfNeeded: data.count)))
        return out
    }

    /// `data` as a zlib stream, which HTTP's `deflate` coding means.
    static func zlib(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])  // deflate, 32 KiB window, no dictionary; 0x7801 % 31 == 0
        out.append(storedBlocks(data))
        let checksum = adler32(data)
        out.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: checksum >> UInt32($0)) })
        return out
    }

    private static func storedBlocks(_ data: Data) -> Data {
        var out = Data()
        var offset = data.startIndex
        repeat {
            let length = min(65_535, data.endIndex - offset)
            let last: UInt8 = offset + length == data.endIndex ? 1 : 0
            out.append(last)  // BFINAL, BTYPE 00, padded to the byte
            out.append(littleEndian(UInt16(length)))
            out.append(littleEndian(~UInt16(length)))
            out.append(data[offset..<offset + length])
            offset += length
        } while offset < data.endIndex
        return out
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    static func adler32(_ data: Data) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}
