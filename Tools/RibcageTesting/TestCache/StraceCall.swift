import Foundation

/// One complete system call of a trace written by ``InputTrace/wrapping(_:log:)``, as the bytes
/// strace printed after the pid: `openat(AT_FDCWD<\x2f…>, "\x2e…", O_RDONLY) = 3<\x2f…>`.
///
/// Read as bytes, not as a `String`: a suite's trace runs to tens of megabytes (`-xx` prints
/// every byte of a path as four), and `ribcage test --cache` reads each one as its suite ends.
struct StraceCall {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let resultMark = Array(") = ".utf8)
    private static let writeOnly = Array("O_WRONLY".utf8)
    private static let directory = Array("O_DIRECTORY".utf8)

    /// The thread or process a `clone`, `clone3`, `fork` or `vfork` made, from its result.
    var child: Int? {
        bytes.withUnsafeBufferPointer { bytes in
            guard
                Self.starts(bytes, with: "clone") || Self.starts(bytes, with: "fork(")
                    || Self.starts(bytes, with: "vfork("),
                let equals = Self.lastIndex(of: Self.resultMark, in: bytes)
            else { return nil }
            var value = 0
            var index = equals + Self.resultMark.count
            var digits = 0
            while index < bytes.count, digits < 10, let digit = Self.decimal(bytes[index]) {
                value = value * 10 + digit
                index += 1
                digits += 1
            }
            // No pid has more than 10 digits: a longer number is not one (and would overflow).
            if index < bytes.count, Self.decimal(bytes[index]) != nil { return nil }
            return digits > 0 ? value : nil
        }
    }

    /// The access this call records, or nil for calls that read nothing: an open for writing
    /// only, a failed start of a program, a line in another shape.
    ///
    /// - Parameter paths: Where relative and unresolved paths are made absolute; it remembers
    ///   each answer, since a trace names the same few thousand paths again and again.
    func access(pid: Int, paths: inout AbsolutePaths) -> InputTrace.Access? {
        bytes.withUnsafeBufferPointer { Self.access(in: $0, pid: pid, paths: &paths) }
    }

    // Reads through a buffer pointer: an array's subscript is a call, with a retain and a
    // release, in the debug builds `ribcage` usually runs from.
    private static func access(in bytes: UnsafeBufferPointer<UInt8>, pid: Int, paths: inout AbsolutePaths)
        -> InputTrace.Access?
    {
        guard let parenthesis = firstIndex(of: UInt8(ascii: "("), in: 0..<bytes.count, of: bytes),
            let equals = lastIndex(of: resultMark, in: bytes)
        else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<parenthesis]), as: UTF8.self)
        var arguments = (parenthesis + 1)..<equals
        let result = (equals + resultMark.count)..<bytes.count
        let succeeded = result.isEmpty || bytes[result.lowerBound] != UInt8(ascii: "-")
        switch name {
        case "execve", "execveat":
            // A failed execve is a search along PATH: only the program that started counts.
            guard succeeded, !result.isEmpty, bytes[result.lowerBound] == UInt8(ascii: "0") else {
                return nil
            }
            let folder = name == "execveat" ? descriptorPath(in: &arguments, of: bytes) : nil
            guard let path = quoted(in: &arguments, of: bytes),
                let absolute = paths.absolute(path, against: folder)
            else {
                return nil
            }
            return InputTrace.Access(kind: .executed, path: absolute, resolved: absolute, pid: pid)
        case "open", "openat", "openat2", "creat":
            let folder = name.hasPrefix("openat") ? descriptorPath(in: &arguments, of: bytes) : nil
            guard let path = quoted(in: &arguments, of: bytes) else { return nil }
            if name == "creat" || contains(writeOnly, in: arguments, of: bytes) { return nil }
            guard let absolute = paths.absolute(path, against: folder) else { return nil }
            let kind: InputTrace.Access.Kind =
                contains(directory, in: arguments, of: bytes) ? .listing : .read
            var answer = result
            let resolved = succeeded ? descriptorPath(in: &answer, of: bytes) : nil
            return InputTrace.Access(kind: kind, path: absolute, resolved: resolved, pid: pid)
        default:
            return nil
        }
    }

    // MARK: Reading the arguments, left to right

    /// A descriptor printed as `AT_FDCWD<path>` or `3<path>` in `range`: the path, or nil; the
    /// range then starts after it.
    private static func descriptorPath(in range: inout Range<Int>, of bytes: UnsafeBufferPointer<UInt8>)
        -> String?
    {
        guard let open = firstIndex(of: UInt8(ascii: "<"), in: range, of: bytes),
            let close = firstIndex(of: UInt8(ascii: ">"), in: (open + 1)..<range.upperBound, of: bytes)
        else { return nil }
        range = (close + 1)..<range.upperBound
        return decode(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]))
    }

    /// The next quoted string in `range`; the range then starts after it.
    private static func quoted(in range: inout Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let quote = UInt8(ascii: "\"")
        guard let open = firstIndex(of: quote, in: range, of: bytes),
            let close = firstIndex(of: quote, in: (open + 1)..<range.upperBound, of: bytes)
        else { return nil }
        range = (close + 1)..<range.upperBound
        return decode(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]))
    }

    /// Decodes strace's `-xx` form, every byte as `\xHH`; nil for anything else.
    static func decode(_ escaped: UnsafeBufferPointer<UInt8>) -> String? {
        guard escaped.count % 4 == 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, escaped.count / 4)) { decoded in
            var index = 0
            var written = 0
            while index < escaped.count {
                guard escaped[index] == UInt8(ascii: "\\"), escaped[index + 1] == UInt8(ascii: "x"),
                    let high = hexadecimal(escaped[index + 2]), let low = hexadecimal(escaped[index + 3])
                else { return nil }
                decoded[written] = high << 4 | low
                written += 1
                index += 4
            }
            return String(decoding: UnsafeBufferPointer(rebasing: decoded[..<written]), as: UTF8.self)
        }
    }

    // MARK: Bytes

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in
            guard bytes.count >= prefix.count else { return false }
            for index in 0..<prefix.count where bytes[index] != prefix[index] { return false }
            return true
        }
    }

    private static func firstIndex(of byte: UInt8, in range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Where the last `pattern` starts: the result is printed last, after arguments that may hold
    /// the same bytes.
    private static func lastIndex(of pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var start = bytes.count - pattern.count
        while start >= 0 {
            if matches(pattern, at: start, in: bytes) { return start }
            start -= 1
        }
        return nil
    }

    private static func contains(
        _ pattern: [UInt8], in range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        var start = range.lowerBound
        while start <= range.upperBound - pattern.count {
            if matches(pattern, at: start, in: bytes) { return true }
            start += 1
        }
        return false
    }

    private static func matches(_ pattern: [UInt8], at start: Int, in bytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard bytes[start] == pattern[0] else { return false }
        for index in 1..<pattern.count where bytes[start + index] != pattern[index] { return false }
        return true
    }

    private static func decimal(_ byte: UInt8) -> Int? {
        (48...57).contains(byte) ? Int(byte - 48) : nil
    }

    private static func hexadecimal(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 97...102: byte - 87
        case 65...70: byte - 55
        default: nil
        }
    }
}

/// Paths made absolute and standardized as `NSString.standardizingPath` does (which also
/// resolves links, with a system call per component), each answer remembered.
struct AbsolutePaths {
    private var known: [String: String] = [:]

    /// `path`, made absolute against `folder` when relative; nil when relative to an unknown
    /// folder.
    mutating func absolute(_ path: String, against folder: String?) -> String? {
        let joined: String
        if path.hasPrefix("/") {
            joined = path
        } else if let folder {
            joined = folder.hasSuffix("/") ? folder + path : folder + "/" + path
        } else {
            return nil
        }
        if let answer = known[joined] { return answer }
        let answer = (joined as NSString).standardizingPath
        known[joined] = answer
        return answer
    }
}
