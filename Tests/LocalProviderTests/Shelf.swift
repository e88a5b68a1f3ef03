import Foundation
import LocalProvider

/// A small ``Journaled`` value for the tests: titles, stored as two columns that must line up.
struct Shelf: Journaled, Equatable {
    enum Change: Codable, Sendable, Equatable {
        case add(String)
        case remove(String)
    }

    struct Columns: Codable, Sendable {
        var titles: [String]
        var flags: [Bool]
    }

    struct Misaligned: Error {}

    var titles: [String] = []

    init() {}
    init(_ titles: [String]) { self.titles = titles }

    init(snapshot: Columns) throws {
        guard snapshot.titles.count == snapshot.flags.count else { throw Misaligned() }
        titles = snapshot.titles
    }

    var snapshot: Columns { Columns(titles: titles, flags: titles.map { _ in true }) }

    /// Not idempotent: adding twice adds twice, so a change applied twice shows.
    mutating func apply(_ change: Change) {
        switch change {
        case .add(let title): titles.append(title)
        case .remove(let title): titles.removeAll { $0 == title }
        }
    }
}

/// A shelf whose snapshot's columns do not line up.
struct MisalignedShelf: Journaled {
    init() {}
    init(snapshot: Shelf.Columns) {}
    var snapshot: Shelf.Columns { Shelf.Columns(titles: ["a", "b"], flags: [true]) }
    mutating func apply(_ change: Shelf.Change) {}
}

/// Something else stored under a shelf's name.
struct Ledger: Journaled {
    init() {}
    init(snapshot: [Int: Double]) {}
    var snapshot: [Int: Double] { [1: 2.5] }
    mutating func apply(_ change: Int) {}
}
