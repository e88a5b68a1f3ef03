import Foundation

/// Reads a stored result (``StoredEntry``) as ``StoredEntry/encoder()`` writes it, without
/// `JSONDecoder`, whose `Codable` machinery was most of the time a look-up spent reading the
/// 500 results of a large package.
///
/// Strict: anything it does not expect (another shape, an unknown field, a number in another
/// form) gives nil, and the caller decodes the blob with `JSONDecoder`, which has the last word.
/// So it can only be faster, never read a result differently.
enum StoredEntryReader {
    /// The entry in `blob` (as ``StoredEntry/entry``: its key without parts), or nil when the
    /// blob is not exactly what the encoder writes.
    static func entry(in blob: Data) -> TestCacheEntry? {
        let bytes = [UInt8](blob)
        return bytes.withUnsafeBufferPointer { buffer -> TestCacheEntry? in
            var parser = JSONParser(bytes: buffer)
            guard let value = parser.value(), parser.atEnd else { return nil }
            return storedEntry(from: value)
        }
    }

    private static func storedEntry(from value: JSONValue) -> TestCacheEntry? {
        guard case .object(let fields) = value else { return nil }
        let known: Set<String> = [
            "cases", "commit", "date", "failed", "host", "key", "keyParts", "passed", "recordedInputs",
            "seconds", "skipped", "testTarget",
        ]
        guard fields.keys.allSatisfy(known.contains),
            let testTarget = fields["testTarget"]?.string,
            case .object(let keyFields)? = fields["key"], Set(keyFields.keys) == ["testTarget", "hash"],
            let keyTarget = keyFields["testTarget"]?.string, let keyHash = keyFields["hash"]?.string,
            case .object(let partsFields)? = fields["keyParts"], Set(partsFields.keys) == ["hash", "size"],
            partsFields["hash"]?.string != nil, partsFields["size"]?.integer != nil,
            let passed = fields["passed"]?.integer, let skipped = fields["skipped"]?.integer,
            let seconds = fields["seconds"]?.double, let host = fields["host"]?.string,
            let date = fields["date"]?.double
        else { return nil }
        // The parts' blob is required, as in `StoredEntry`, though only `--explain-cache` reads it.
        var entry = TestCacheEntry(
            testTarget: testTarget, key: TestCacheKey(testTarget: keyTarget, parts: [], hash: keyHash),
            passed: passed, skipped: skipped, seconds: seconds, commit: nil, host: host,
            date: Date(timeIntervalSince1970: date), recordedInputs: nil)
        if let failed = fields["failed"] {
            guard let value = failed.integer else { return nil }
            entry.failed = value
        }
        if let commit = fields["commit"] {
            guard let value = commit.string else { return nil }
            entry.commit = value
        }
        if let recorded = fields["recordedInputs"] {
            guard case .array(let items) = recorded else { return nil }
            var inputs: [RecordedInput] = []
            inputs.reserveCapacity(items.count)
            for item in items {
                guard case .object(let input) = item, input.count == 3,
                    let kind = input["kind"]?.string.flatMap(RecordedInput.Kind.init(rawValue:)),
                    let path = input["path"]?.string, let digest = input["digest"]?.string
                else { return nil }
                inputs.append(RecordedInput(kind: kind, path: path, digest: digest))
            }
            entry.recordedInputs = inputs
        }
        if let cases = fields["cases"] {
            guard case .array(let items) = cases else { return nil }
            var outcomes: [TestCacheEntry.CaseOutcome] = []
            outcomes.reserveCapacity(items.count)
            for item in items {
                guard case .object(let outcome) = item,
                    outcome.keys.allSatisfy(["test", "outcome", "seconds"].contains),
                    let test = outcome["test"]?.string,
                    let ended = outcome["outcome"]?.string.flatMap(TestCacheEntry.CaseOutcome.Outcome.init)
                else { return nil }
                var seconds: Double?
                if let value = outcome["seconds"] {
                    guard let number = value.double else { return nil }
                    seconds = number
                }
                outcomes.append(.init(test: test, outcome: ended, seconds: seconds))
            }
            entry.cases = outcomes
        }
        return entry
    }
}

/// A JSON value, as far as ``StoredEntryReader`` needs one.
private enum JSONValue {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// The number as written.
    case number(String)

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// An integer written as one: digits, with a leading minus at most.
    var integer: Int? {
        guard case .number(let text) = self,
            text.utf8.allSatisfy({ (48...57).contains($0) || $0 == UInt8(ascii: "-") })
        else { return nil }
        return Int(text)
    }

    var double: Double? {
        if case .number(let text) = self { Double(text) } else { nil }
    }
}

/// Parses the JSON that `JSONEncoder` writes: objects, arrays, strings and numbers (the stored
/// result has no `true`, `false` or `null`: nil fields are left out).
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return index == bytes.count
        }
    }

    mutating func value() -> JSONValue? {
        skipSpaces()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "-"), 48...57: return number()
        default: return nil
        }
    }

    private mutating func object() -> JSONValue? {
        index += 1
        var fields: [String: JSONValue] = [:]
        skipSpaces()
        if take(UInt8(ascii: "}")) { return .object(fields) }
        while true {
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else {
                return nil
            }
            skipSpaces()
            guard take(UInt8(ascii: ":")), let value = value(), fields.updateValue(value, forKey: name) == nil
            else { return nil }
            skipSpaces()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}")) ? .object(fields) : nil
        }
    }

    private mutating func array() -> JSONValue? {
        index += 1
        var items: [JSONValue] = []
        skipSpaces()
        if take(UInt8(ascii: "]")) { return .array(items) }
        while true {
            guard let item = value() else { return nil }
            items.append(item)
            skipSpaces()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]")) ? .array(items) : nil
        }
    }

    /// A string from its opening quote; nil for an escape it does not know or a control
    /// character, which the encoder never writes bare.
    private mutating func string() -> String? {
        index += 1
        var decoded: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    decoded.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                decoded.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (the `\u` read), a surrogate pair taken whole.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let first = hexQuad() else { return nil }
        if (0xD800..<0xDC00).contains(first) {
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let second = hexQuad(),
                (0xDC00..<0xE000).contains(second)
            else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        }
        return Unicode.Scalar(first)
    }

    private mutating func hexQuad() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 48...57: digit = UInt32(byte - 48)
            case 97...102: digit = UInt32(byte - 87)
            case 65...70: digit = UInt32(byte - 55)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A number as JSON writes one (`-`, then `0` or digits not starting with `0`, then `.` and
    /// digits, then `e` or `E`, a sign and digits); nil for anything else `Double` would take
    /// (`+1`, `01`, `1.`, `.5`), which `JSONDecoder` refuses.
    private mutating func number() -> JSONValue? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            if index < bytes.count, (48...57).contains(bytes[index]) { return nil }
        } else if !digits() {
            return nil
        }
        if take(UInt8(ascii: ".")), !digits() { return nil }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { return nil }
        }
        return .number(text(from: start))
    }

    /// One or more decimal digits; false, having read nothing, when there is none.
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpaces() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }
}
