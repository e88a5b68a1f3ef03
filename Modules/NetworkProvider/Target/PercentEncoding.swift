/// Percent-encoding of the text a target writes into a URL (RFC 3986 §2.1).
///
/// A target's `path` is written by a person: `breed/shiba inu`, `search?q=ü`, `files/a%2Fb`.
/// Every byte that may not stand as it is in that part of a URL becomes `%XX`, and an escape the
/// text already has (`%` and two hex digits) is kept, so encoding twice changes nothing. A `%`
/// that starts no escape is encoded as `%25`.
enum PercentEncoding {
    /// Where the text goes; each part allows a different set of characters as they are.
    enum Component {
        /// A path: `pchar` and `/`.
        case path
        /// A query: `pchar`, `/` and `?`.
        case query
        /// A whole URI reference, such as a `Location` header's: everything a URL may hold.
        case reference

        fileprivate var allowed: AllowedBytes {
            switch self {
            case .path: .path
            case .query: .query
            case .reference: .reference
            }
        }
    }

    /// `text` with every byte `component` does not allow percent-encoded.
    static func encode(_ text: some StringProtocol, as component: Component) -> String {
        let allowed = component.allowed
        if text.utf8.allSatisfy({ allowed.contains($0) && $0 != UInt8(ascii: "%") }) { return String(text) }
        let bytes = Array(text.utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count + bytes.count / 2)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2])
            {
                encoded += bytes[index...index + 2]
                index += 3
                continue
            }
            if byte != UInt8(ascii: "%"), allowed.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
            index += 1
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "a")...UInt8(ascii: "f"):
            true
        default: false
        }
    }
}

/// The ASCII bytes a URL component allows unencoded, as a 128-bit set.
private struct AllowedBytes {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ characters: String) {
        for byte in characters.utf8 { insert(byte) }
    }

    private mutating func insert(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    /// RFC 3986's unreserved characters, sub-delims, `:` and `@`.
    private static let pchar =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@"

    static let path = AllowedBytes(pchar + "/")
    static let query = AllowedBytes(pchar + "/?")
    static let reference = AllowedBytes(pchar + "/?#[]")
}
