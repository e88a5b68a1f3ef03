/// One module a source file refers to by import.
package struct ImportReference: Sendable, Equatable {
    /// How the module is referred to.
    package enum Form: String, Sendable, Codable {
        /// An import declaration, in any of its forms: `import X`, `public import X`,
        /// `@_spi(S) @preconcurrency import X`, `import struct X.Y`.
        case `import`
        /// `#if canImport(X)`: a use, but a conditional one.
        case canImport
    }

    /// The module: the first component of an import path.
    package var module: String
    /// The line, from 1.
    package var line: Int
    /// How it is referred to.
    package var form: Form
    /// The attributes written before the import, with their `@`: `@testable`, `@_exported`.
    package var attributes: [String] = []
    /// `public`, `package`, `internal`, `fileprivate` or `private`, when written.
    package var accessLevel: String? = nil
    /// The conditions of the `#if` branches around it; `nil` when there are none.
    package var condition: CompilationCondition? = nil

    /// A reference; the scanner fills in attributes and conditions.
    package init(
        module: String, line: Int, form: Form, attributes: [String] = [], accessLevel: String? = nil,
        condition: CompilationCondition? = nil
    ) {
        self.module = module
        self.line = line
        self.form = form
        self.attributes = attributes
        self.accessLevel = accessLevel
        self.condition = condition
    }
}
