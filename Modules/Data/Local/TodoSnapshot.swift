import Domain
import Foundation
import LocalProvider

/// The todos as their snapshot stores them: column by column, each column one `Data`.
///
/// `PropertyListDecoder` looks up generic metadata for every element it decodes: 10,000 todos
/// as dictionaries took 70% of a 140 ms cold start (`perf record` of the release TodoAppDog),
/// and as arrays of strings, flags and numbers still 60%. Five `Data` values decode at once;
/// the columns are little-endian and fixed-width but for the titles.
struct TodoSnapshot: Codable, Sendable {
    /// Each todo's UUID, 16 bytes.
    var ids = Data()
    /// The titles' UTF-8 bytes, one after another.
    var titles = Data()
    /// Each title's length in bytes, as a UInt32.
    var titleLengths = Data()
    /// One byte per todo: 1 when done.
    var doneFlags = Data()
    /// Each todo's `createdAt` as seconds since 2001, a Float64's bits.
    var createdAt = Data()

    init(_ todos: [Todo]) {
        ids.reserveCapacity(todos.count * 16)
        for todo in todos {
            withUnsafeBytes(of: todo.id.uuid) { ids.append(contentsOf: $0) }
            let title = Data(todo.title.utf8)
            titles.append(title)
            withUnsafeBytes(of: UInt32(title.count).littleEndian) { titleLengths.append(contentsOf: $0) }
            doneFlags.append(todo.isDone ? 1 : 0)
            let seconds = todo.createdAt.timeIntervalSinceReferenceDate.bitPattern.littleEndian
            withUnsafeBytes(of: seconds) { createdAt.append(contentsOf: $0) }
        }
    }

    /// The todos, or `nil` when the columns do not line up.
    var todos: [Todo]? {
        let count = doneFlags.count
        guard ids.count == count * 16, titleLengths.count == count * 4, createdAt.count == count * 8 else {
            return nil
        }
        let ids = [UInt8](self.ids)
        let lengths = [UInt8](titleLengths)
        let seconds = [UInt8](createdAt)
        let flags = [UInt8](doneFlags)
        let text = [UInt8](titles)
        var todos: [Todo] = []
        todos.reserveCapacity(count)
        var offset = 0
        for index in 0..<count {
            let length = Int(Self.integer(UInt32.self, in: lengths, at: index * 4))
            guard offset + length <= text.count else { return nil }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: ids[index * 16..<(index + 1) * 16]) }
            let created = Double(bitPattern: Self.integer(UInt64.self, in: seconds, at: index * 8))
            todos.append(
                Todo(
                    id: UUID(uuid: uuid),
                    title: String(decoding: text[offset..<offset + length], as: UTF8.self),
                    isDone: flags[index] != 0, createdAt: Date(timeIntervalSinceReferenceDate: created)))
            offset += length
        }
        return offset == text.count ? todos : nil
    }

    private static func integer<T: FixedWidthInteger>(_ type: T.Type, in bytes: [UInt8], at offset: Int) -> T
    {
        var value: T = 0
        for byte in bytes[offset..<offset + MemoryLayout<T>.size].reversed() { value = value << 8 | T(byte) }
        return value
    }
}

/// Why a stored snapshot could not be read.
enum TodoSnapshotError: Error, CustomStringConvertible {
    case unknownVersion(Int)
    case misalignedColumns

    var description: String {
        switch self {
        case .unknownVersion(let version): "the todos were stored with an unknown version \(version)"
        case .misalignedColumns: "the todos' columns do not line up"
        }
    }
}

/// The todos as a ``JournaledStore`` keeps them: a snapshot of columns plus a journal of
/// ``TodoChange``s.
struct TodoItems: Journaled {
    var todos: [Todo]

    init() { todos = [] }

    init(_ todos: [Todo]) { self.todos = todos }

    init(snapshot: TodoSnapshot) throws {
        guard let todos = snapshot.todos else { throw TodoSnapshotError.misalignedColumns }
        self.todos = todos
    }

    var snapshot: TodoSnapshot { TodoSnapshot(todos) }

    mutating func apply(_ change: TodoChange) { change.apply(to: &todos) }
}
