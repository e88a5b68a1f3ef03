import RibcagePackage

/// Whether a name can name a new module: it must compile as one, and must not shadow a module
/// that code in the workspace may already import.
package enum ModuleName {
    /// Swift's keywords. Names are UpperCamelCase, so only `Self` and `Any` could slip through
    /// that rule, but each keyword gets its own message.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self",
        "Self", "super", "throws", "true", "try", "package", "consume", "borrowing", "consuming", "actor",
    ]

    /// What a new name must not collide with.
    package struct TakenNames: Sendable {
        /// Targets and products of the workspace itself.
        package var workspace: Set<String>
        /// Products of its dependencies, and the modules they hold, each with its package.
        package var dependencyProducts: [String: String]
        /// Modules of the toolchain and of the platforms' SDKs.
        package var sdk: Set<String>

        /// The names in use.
        package init(workspace: Set<String>, dependencyProducts: [String: String], sdk: Set<String>) {
            self.workspace = workspace
            self.dependencyProducts = dependencyProducts
            self.sdk = sdk
        }
    }

    /// Checks `name` for a new module, whose test target will be `<name>Tests`.
    ///
    /// - Throws: ``RibcageError/invalidName(_:reason:)`` for a name that cannot compile as a
    ///   module's, ``RibcageError/scaffoldExists(_:takenBy:)`` for one already in use.
    package static func validate(_ name: String, against taken: TakenNames) throws {
        if keywords.contains(name) {
            throw RibcageError.invalidName(name, reason: "it is a Swift keyword")
        }
        guard let first = name.first, first.isUppercase, first.isASCII,
            name.allSatisfy({ ($0.isLetter || $0.isNumber) && $0.isASCII })
        else {
            throw RibcageError.invalidName(
                name, reason: "a module name here is UpperCamelCase ASCII letters and digits, e.g. Settings")
        }
        for candidate in [name, "\(name)Tests"] {
            if taken.workspace.contains(candidate) {
                throw RibcageError.scaffoldExists(candidate, takenBy: "a target or product of this workspace")
            }
            if let package = taken.dependencyProducts[candidate] {
                throw RibcageError.scaffoldExists(
                    candidate,
                    takenBy: "a module of the dependency \(package), so imports of it would be ambiguous")
            }
            if taken.sdk.contains(candidate) {
                throw RibcageError.scaffoldExists(
                    candidate,
                    takenBy:
                        "a module of the Swift toolchain or a platform's SDK, which a new module would shadow"
                )
            }
        }
    }
}
