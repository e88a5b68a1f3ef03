import Foundation

/// SHA-256 (FIPS 180-4), for the test cache's content addresses and REAPI's digests.
///
/// Foundation on Linux has no CryptoKit, and swift-crypto would build BoringSSL into a tool that
/// needs one hash; this is the standard algorithm, checked against the FIPS test vectors and
/// `sha256sum` in the tests.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes of an unfinished 64-byte block, the first `pendingCount` of these eight words:
    /// inline, as an array here cost a heap allocation per hash, and the test cache makes
    /// thousands of small hashes per look-up.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0, 0, 0, 0, 0, 0, 0, 0
    )
    private var pendingCount = 0
    private var length: UInt64 = 0

    /// A hash of nothing yet.
    package init() {}

    /// The hex digest of `data`.
    package static func hex(_ data: some DataProtocol) -> String {
        var hash = SHA256()
        hash.update(data)
        return hash.finalize()
    }

    /// The hex digest of a string's UTF-8 bytes.
    package static func hex(_ text: String) -> String {
        var hash = SHA256()
        hash.update(text)
        return hash.finalize()
    }

    /// Adds `data` to the hashed bytes.
    package mutating func update(_ data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { absorb(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Adds a string's UTF-8 bytes, without copying them into an array first.
    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { absorb(UnsafeRawBufferPointer($0)) }
    }

    private mutating func absorb(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        if pendingCount > 0 {
            let take = min(64 - pendingCount, bytes.count)
            let start = pendingCount
            withUnsafeMutableBytes(of: &pending) {
                UnsafeMutableRawBufferPointer(rebasing: $0[start..<start + take]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            }
            pendingCount += take
            offset = take
            guard pendingCount == 64 else { return }
            var block = pending
            withUnsafeBytes(of: &block) { compress($0) }
            pendingCount = 0
        }
        while bytes.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 64]))
            offset += 64
        }
        let rest = bytes.count - offset
        if rest > 0 {
            withUnsafeMutableBytes(of: &pending) {
                UnsafeMutableRawBufferPointer(rebasing: $0[0..<rest]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            pendingCount = rest
        }
    }

    /// Pads, hashes the last block and returns the digest as 64 lowercase hex digits.
    package mutating func finalize() -> String {
        let bitLength = length &* 8
        // The padding: 0x80, zeros, then the length in bits, big-endian, to a whole block (two
        // when fewer than nine bytes are left in this one).
        let zeros = (pendingCount < 56 ? 55 : 119) - pendingCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { padding in
            padding.initialize(repeating: 0)
            padding[0] = 0x80
            for index in 0..<8 {
                padding[1 + zeros + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index))
            }
            absorbPadding(
                UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: padding[0..<(1 + zeros + 8)])))
        }
        let words = state
        return String(unsafeUninitializedCapacity: 64) { text in
            let digits: StaticString = "0123456789abcdef"
            var index = 0
            withUnsafeBytes(of: words) { raw in
                for word in raw.bindMemory(to: UInt32.self) {
                    for shift in stride(from: 28, through: 0, by: -4) {
                        text[index] = digits.utf8Start[Int((word >> UInt32(shift)) & 0xf)]
                        index += 1
                    }
                }
            }
            return 64
        }
    }

    /// Hashes the padding, which fills one or two blocks with the pending bytes (its length
    /// not counted as message bytes).
    private mutating func absorbPadding(_ bytes: UnsafeRawBufferPointer) {
        let saved = length
        absorb(bytes)
        length = saved
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5,
        0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3,
        0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc,
        0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
        0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13,
        0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3,
        0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5,
        0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208,
        0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// One 64-byte block of the compression function.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        // The message schedule lives on the stack: a heap array per block would dominate the time.
        let (a, b, c, d, e, f, g, h) = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) {
            schedule in
            for index in 0..<16 {
                let base = index * 4
                schedule[index] =
                    UInt32(block[base]) << 24 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8
                    | UInt32(block[base + 3])
            }
            for index in 16..<64 {
                let early = schedule[index - 15]
                let late = schedule[index - 2]
                let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
                let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
                schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
            }
            var (a, b, c, d, e, f, g, h) = state
            for index in 0..<64 {
                let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choice = (e & f) ^ (~e & g)
                let first = h &+ sum1 &+ choice &+ Self.roundConstants[index] &+ schedule[index]
                let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let second = sum0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ second)
            }
            return (a, b, c, d, e, f, g, h)
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
            state.7 &+ h
        )
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
