import Foundation
import RibcagePackage

/// The part of Bazel's `ActionResult` message (remote_execution.proto, REAPI v2) the test cache
/// writes to `/ac/<key>`: one output file, the result record, named by its digest in `/cas`.
///
/// Writing a real `ActionResult` rather than opaque bytes is what lets a validating server
/// (bazel-remote checks every `/ac` upload) hold ribcage's entries next to Bazel's.
package struct ActionResult: Sendable, Equatable {
    /// An output file: a path and the CAS digest of its contents.
    package struct OutputFile: Sendable, Equatable {
        /// The file's path in the action's output tree.
        package var path: String
        /// The SHA-256 of its contents, in hex.
        package var hash: String
        /// Its size in bytes.
        package var size: Int64

        /// A file at `path` whose contents are the CAS blob `hash` of `size` bytes.
        package init(path: String, hash: String, size: Int64) {
            self.path = path
            self.hash = hash
            self.size = size
        }
    }

    package var outputFiles: [OutputFile]
    /// The action's exit code; a cached result is always a green one, 0.
    package var exitCode: Int32 = 0

    /// The message without fields it does not know, or an error naming what is wrong.
    package struct Malformed: Error, CustomStringConvertible {
        /// What is wrong.
        package var description: String
    }

    /// A result with these output files.
    package init(outputFiles: [OutputFile], exitCode: Int32 = 0) {
        self.outputFiles = outputFiles
        self.exitCode = exitCode
    }

    // Field numbers from remote_execution.proto.
    private enum Field {
        static let outputFiles = 2, exitCode = 4
        static let path = 1, digest = 2
        static let hash = 1, sizeBytes = 2
    }

    /// The protobuf encoding.
    package func serialized() -> Data {
        var message = ProtobufWriter()
        for file in outputFiles {
            var digest = ProtobufWriter()
            digest.string(Field.hash, file.hash)
            digest.varint(Field.sizeBytes, UInt64(bitPattern: file.size))
            var output = ProtobufWriter()
            output.string(Field.path, file.path)
            output.bytes(Field.digest, digest.data)
            message.bytes(Field.outputFiles, output.data)
        }
        if exitCode != 0 { message.varint(Field.exitCode, UInt64(bitPattern: Int64(exitCode))) }
        return message.data
    }

    /// Decodes the protobuf encoding, skipping fields this type does not hold.
    ///
    /// - Throws: ``Malformed`` for a truncated or garbled message.
    package init(serialized data: Data) throws {
        var files: [OutputFile] = []
        var exitCode: Int32 = 0
        for field in try ProtobufReader.fields(of: Array(data)) {
            switch (field.number, field.value) {
            case (Field.outputFiles, .bytes(let bytes)):
                var path = ""
                var hash = ""
                var size: Int64 = 0
                for inner in try ProtobufReader.fields(of: bytes) {
                    switch (inner.number, inner.value) {
                    case (Field.path, .bytes(let text)): path = String(decoding: text, as: UTF8.self)
                    case (Field.digest, .bytes(let digest)):
                        for part in try ProtobufReader.fields(of: digest) {
                            switch (part.number, part.value) {
                            case (Field.hash, .bytes(let text)): hash = String(decoding: text, as: UTF8.self)
                            case (Field.sizeBytes, .varint(let value)): size = Int64(bitPattern: value)
                            default: break
                            }
                        }
                    default: break
                    }
                }
                files.append(OutputFile(path: path, hash: hash, size: size))
            case (Field.exitCode, .varint(let value)):
                exitCode = Int32(truncatingIfNeeded: Int64(bitPattern: value))
            default: break
            }
        }
        self.init(outputFiles: files, exitCode: exitCode)
    }
}

/// Appends protobuf fields (wire types 0 and 2, all this cache needs).
struct ProtobufWriter {
    private(set) var data = Data()

    mutating func varint(_ field: Int, _ value: UInt64) {
        rawVarint(UInt64(field << 3))
        rawVarint(value)
    }

    mutating func bytes(_ field: Int, _ value: Data) {
        rawVarint(UInt64(field << 3 | 2))
        rawVarint(UInt64(value.count))
        data.append(value)
    }

    mutating func string(_ field: Int, _ value: String) {
        bytes(field, Data(value.utf8))
    }

    private mutating func rawVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            data.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        data.append(UInt8(rest))
    }
}

/// Reads the fields of one protobuf message, without a schema.
enum ProtobufReader {
    enum Value {
        case varint(UInt64)
        case bytes([UInt8])
        case fixed
    }

    static func fields(of bytes: [UInt8]) throws -> [(number: Int, value: Value)] {
        var fields: [(Int, Value)] = []
        var index = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < bytes.count else {
                    throw ActionResult.Malformed(description: "truncated varint")
                }
                guard shift < 64 else {
                    throw ActionResult.Malformed(description: "varint longer than 64 bits")
                }
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        while index < bytes.count {
            let tag = try varint()
            let number = Int(tag >> 3)
            guard number > 0 else { throw ActionResult.Malformed(description: "field number 0") }
            switch tag & 7 {
            case 0: fields.append((number, .varint(try varint())))
            case 1, 5:
                let width = tag & 7 == 1 ? 8 : 4
                guard index + width <= bytes.count else {
                    throw ActionResult.Malformed(description: "truncated fixed-width field")
                }
                index += width
                fields.append((number, .fixed))
            case 2:
                let length = try varint()
                guard length <= UInt64(bytes.count - index) else {
                    throw ActionResult.Malformed(description: "field \(number) runs past the end")
                }
                fields.append((number, .bytes(Array(bytes[index..<index + Int(length)]))))
                index += Int(length)
            default:
                throw ActionResult.Malformed(description: "unknown wire type \(tag & 7)")
            }
        }
        return fields
    }
}
