import RibcagePackage
import SwiftParser
import SwiftSyntax

/// The `let modules: [Module] = [ … ]` table of a Ribcage-style Package.swift, read with
/// SwiftParser, so that any layout `swift format` produces — a call's name on its own line, an
/// argument list over several lines — reads the same.
///
/// Edits splice text into the original at the positions the parse gives, so everything else in
/// the file stays byte for byte as it was.
package struct ModulesTable: Sendable {
    /// One row: `.feature("Todo", dependencies: [...])`.
    package struct Row: Sendable, Equatable {
        /// The helper it calls: `module`, `feature`, `app`, `tool`, `systemLibrary`.
        package var kind: String
        /// The module's name, the call's first argument.
        package var name: String
        /// The `dependencies:` argument as written: string literals unquoted, others as source
        /// (`.log`); `nil` when the row has no such argument.
        package var dependencies: [String]?
        /// The `layer:` argument without its dot (`core`); `nil` when the row has none.
        package var layer: String? = nil
    }

    /// The manifest's text.
    package private(set) var source: String
    /// The rows, in file order.
    package private(set) var rows: [Row] = []

    /// Reads the table in `source`.
    ///
    /// - Throws: ``RibcageError/scaffoldRefused(_:)`` when there is not exactly one
    ///   `let modules = [ … ]` array, or a row is not a `.kind("Name", …)` call.
    package init(source: String) throws {
        self.source = source
        _ = try parse()
    }

    /// The row of `name`, if the table has one.
    package func row(named name: String) -> Row? {
        rows.first { $0.name == name }
    }

    // MARK: Edits

    /// Adds `row` (Swift source such as `.feature("Settings", dependencies: ["RIBs"])`) after the
    /// last row of the same kind (`feature`) and `layer`, or else of the same kind, or else after
    /// the last row, indented like it: a new core module joins the core rows, not the data ones
    /// that follow them.
    package mutating func append(row text: String, kind: String, layer: String? = nil) throws {
        let table = try parse()
        let utf8 = Array(source.utf8)
        let elements = Array(zip(table.elements, rows))
        let sameLayer = layer.flatMap { layer in elements.last { $0.1.kind == kind && $0.1.layer == layer }?.0
        }
        let sameKind = elements.last { $0.1.kind == kind }?.0
        guard let last = sameLayer ?? sameKind ?? table.elements.last else {
            // An empty table: put the row on its own line inside the brackets.
            let offset = table.leftSquare.endPositionBeforeTrailingTrivia.utf8Offset
            try splice(at: offset, "\n    \(text),\n")
            return
        }
        let indentation = Self.indentation(
            ofLineAt: last.positionAfterSkippingLeadingTrivia.utf8Offset, in: utf8)
        if let comma = last.trailingComma {
            try splice(at: comma.endPositionBeforeTrailingTrivia.utf8Offset, "\n\(indentation)\(text),")
        } else {
            try splice(at: last.endPositionBeforeTrailingTrivia.utf8Offset, ",\n\(indentation)\(text)")
        }
    }

    /// Adds `dependency` (Swift source, e.g. `"Settings"`) to the `dependencies:` of the row named
    /// `name`, creating the argument when the row has none.
    package mutating func addDependency(_ dependency: String, toRow name: String) throws {
        let table = try parse()
        guard let call = table.calls.first(where: { Self.name(of: $0) == name }) else {
            throw RibcageError.scaffoldRefused("Package.swift's modules table has no row for '\(name)'")
        }
        if let argument = call.arguments.first(where: { $0.label?.text == "dependencies" }) {
            guard let array = argument.expression.as(ArrayExprSyntax.self) else {
                throw RibcageError.scaffoldRefused(
                    "the dependencies of '\(name)' in Package.swift are not an array literal")
            }
            try insert(dependency, into: array)
        } else {
            // `.feature("Name")` or `.feature("Name", testDependencies: …)`: after the name.
            guard let first = call.arguments.first else {
                throw RibcageError.scaffoldRefused(
                    "the row of '\(name)' in Package.swift has no name argument")
            }
            let offset = first.expression.endPositionBeforeTrailingTrivia.utf8Offset
            try splice(at: offset, ", dependencies: [\(dependency)]")
        }
    }

    private mutating func insert(_ element: String, into array: ArrayExprSyntax) throws {
        guard let last = array.elements.last else {
            try splice(at: array.leftSquare.endPositionBeforeTrailingTrivia.utf8Offset, element)
            return
        }
        let utf8 = Array(source.utf8)
        // A list laid out one line per element (or a few per line) grows by a line; an inline
        // list grows inline.
        let multiline = array.rightSquare.leadingTrivia.contains { $0.isNewline }
        if multiline {
            let indentation = Self.indentation(
                ofLineAt: last.positionAfterSkippingLeadingTrivia.utf8Offset, in: utf8)
            if let comma = last.trailingComma {
                try splice(
                    at: comma.endPositionBeforeTrailingTrivia.utf8Offset, "\n\(indentation)\(element),")
            } else {
                try splice(at: last.endPositionBeforeTrailingTrivia.utf8Offset, ",\n\(indentation)\(element)")
            }
        } else if let comma = last.trailingComma {
            try splice(at: comma.endPositionBeforeTrailingTrivia.utf8Offset, " \(element),")
        } else {
            try splice(at: last.endPositionBeforeTrailingTrivia.utf8Offset, ", \(element)")
        }
    }

    private mutating func splice(at utf8Offset: Int, _ text: String) throws {
        var bytes = Array(source.utf8)
        bytes.insert(contentsOf: Array(text.utf8), at: utf8Offset)
        source = String(decoding: bytes, as: UTF8.self)
        _ = try parse()
    }

    // MARK: Reading

    private struct Table {
        var array: ArrayExprSyntax
        var elements: ArrayElementListSyntax { array.elements }
        var leftSquare: TokenSyntax { array.leftSquare }
        var calls: [FunctionCallExprSyntax]
    }

    /// Parses `source`, refreshing ``rows``.
    @discardableResult
    private mutating func parse() throws -> Table {
        let file = Parser.parse(source: source)
        let tables = file.statements.compactMap { statement -> ArrayExprSyntax? in
            guard let variable = statement.item.as(VariableDeclSyntax.self),
                let binding = variable.bindings.first,
                binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "modules"
            else { return nil }
            return binding.initializer?.value.as(ArrayExprSyntax.self)
        }
        guard tables.count == 1, let array = tables.first else {
            throw RibcageError.scaffoldRefused(
                "Package.swift has no single `let modules = [ … ]` table to add to (found \(tables.count))")
        }
        var calls: [FunctionCallExprSyntax] = []
        var rows: [Row] = []
        for element in array.elements {
            guard let call = element.expression.as(FunctionCallExprSyntax.self),
                let kind = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
                let name = Self.name(of: call)
            else {
                throw RibcageError.scaffoldRefused(
                    "a row of Package.swift's modules table is not a `.kind(\"Name\", …)` call: "
                        + element.expression.trimmedDescription)
            }
            let dependencies = call.arguments.first { $0.label?.text == "dependencies" }
                .flatMap { $0.expression.as(ArrayExprSyntax.self) }
                .map { array in
                    array.elements.map { element in
                        element.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
                            ?? element.expression.trimmedDescription
                    }
                }
            let layer = call.arguments.first { $0.label?.text == "layer" }
                .flatMap { $0.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text }
            calls.append(call)
            rows.append(Row(kind: kind, name: name, dependencies: dependencies, layer: layer))
        }
        self.rows = rows
        return Table(array: array, calls: calls)
    }

    private static func name(of call: FunctionCallExprSyntax) -> String? {
        guard let first = call.arguments.first, first.label == nil else { return nil }
        return first.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// The spaces and tabs that begin the line holding `offset`.
    private static func indentation(ofLineAt offset: Int, in utf8: [UInt8]) -> String {
        var start = offset
        while start > 0 && utf8[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = start
        while end < utf8.count && (utf8[end] == UInt8(ascii: " ") || utf8[end] == UInt8(ascii: "\t")) {
            end += 1
        }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}
