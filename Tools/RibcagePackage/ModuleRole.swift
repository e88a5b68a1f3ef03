/// What a module is for, from the Modules table's **Role** cell. It decides whether the
/// package exports the module as a product: only libraries and executables are offered to other
/// packages; test support and C shims serve this package alone.
package enum ModuleRole: Sendable, Equatable {
    /// Code other packages may use: a library product of the module's name.
    case library
    /// Helpers for this package's tests and benchmarks (fakes, servers, snapshot assertions).
    case testSupport
    /// A C library of the system found with pkg-config, or a few C sources: imported by the
    /// package's own modules, never a product.
    case cShim
    /// A program: an executable product of this name.
    case executable(String)

    /// Reads a Role cell: `library`, `test support`, `C shim` (a note may follow in brackets,
    /// such as `(pkg-config libcurl)`) or `executable NAME`. The older spelling
    /// `system library (pkg-config NAME)` is a C shim. Returns `nil` for anything else.
    package init?(cell: String) {
        let words = cell.split(separator: " ").map(String.init)
        let lowered = words.map { $0.lowercased() }
        switch lowered.first {
        case "library" where words.count == 1:
            self = .library
        case "executable" where words.count == 2:
            self = .executable(words[1])
        case "test" where lowered.count == 2 && lowered[1] == "support":
            self = .testSupport
        case "c" where lowered.count >= 2 && lowered[1] == "shim" && Self.isNote(words.dropFirst(2)):
            self = .cShim
        case "system" where lowered.count >= 2 && lowered[1] == "library" && Self.isNote(words.dropFirst(2)):
            self = .cShim
        default:
            return nil
        }
    }

    /// Nothing, or one bracketed note.
    private static func isNote(_ words: ArraySlice<String>) -> Bool {
        guard let first = words.first, let last = words.last else { return true }
        return first.hasPrefix("(") && last.hasSuffix(")")
    }

    /// How the role is written in the table.
    package var cell: String {
        switch self {
        case .library: "library"
        case .testSupport: "test support"
        case .cShim: "C shim"
        case .executable(let product): "executable \(product)"
        }
    }
}
