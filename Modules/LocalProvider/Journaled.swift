import Foundation

/// A value that a ``JournaledStore`` keeps: a large collection that changes a little at a
/// time, such as a list of todos.
///
/// ```swift
/// struct Shelf: Journaled {
///     enum Change: Codable, Sendable { case added(Book), removed(Book.ID) }
///     var books: [Book] = []
///
///     init() {}
///     init(snapshot: [Book]) { books = snapshot }
///     var snapshot: [Book] { books }
///
///     mutating func apply(_ change: Change) {
///         switch change {
///         case .added(let book): books.append(book)
///         case .removed(let id): books.removeAll { $0.id == id }
///         }
///     }
/// }
/// ```
public protocol Journaled: Sendable {
    /// One change, as a journal line stores it (JSON).
    associatedtype Change: Codable & Sendable
    /// The value as a snapshot stores it (a binary property list). A columnar form — a few
    /// `Data` columns rather than one dictionary per element — decodes much faster.
    associatedtype Snapshot: Codable & Sendable

    /// The value before anything was stored.
    init()

    /// The value a snapshot holds.
    ///
    /// - Throws: When the snapshot does not make a consistent value; the store sets it aside
    ///   and reports ``DamageReason/inconsistentSnapshot(underlying:)``.
    init(snapshot: Snapshot) throws

    /// The value as a snapshot.
    var snapshot: Snapshot { get }

    /// Applies `change`. The store applies each change exactly once, in the order it was
    /// appended, so a change need not be idempotent.
    mutating func apply(_ change: Change)
}

/// One journal line: a change and its place in the sequence of all changes ever appended. A
/// snapshot records the last sequence number it holds, so a line it already holds is skipped.
struct JournalEntry<Change: Codable>: Codable {
    var sequence: Int
    var change: Change
}

/// The changes in a run of journal bytes.
struct JournalLines<Change: Codable> {
    var entries: [JournalEntry<Change>] = []
    /// The numbers of the lines that are not entries, counted from 1 in the whole file.
    var damagedLines: [Int] = []
    /// How many whole lines (ending in a newline) were read.
    var lineCount = 0
    /// The bytes up to the last newline. What follows is a write that a kill or a full disk
    /// cut short: it was never acknowledged.
    var wholeLength = 0

    /// Parses `bytes`, the journal from the end of line number `linesBefore`.
    init(_ bytes: Data, linesBefore: Int) {
        let decoder = JSONDecoder()
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lineCount += 1
            let line = bytes[start..<newline]
            if let entry = try? decoder.decode(JournalEntry<Change>.self, from: line) {
                entries.append(entry)
            } else {
                damagedLines.append(linesBefore + lineCount)
            }
            start = bytes.index(after: newline)
        }
        wholeLength = bytes.distance(from: bytes.startIndex, to: start)
    }

    /// The line for `change` with sequence number `sequence`, newline included.
    static func line(for change: Change, sequence: Int) throws(StorageError) -> Data {
        do {
            var line = try JSONEncoder().encode(JournalEntry(sequence: sequence, change: change))
            line.append(UInt8(ascii: "\n"))
            return line
        } catch {
            throw .encodingFailed(key: "journal entry \(sequence)", underlying: error)
        }
    }
}
