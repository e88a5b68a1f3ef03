import Dispatch
import Foundation
import SwiftParser
import SwiftSyntax
import Synchronization

/// Finds the imports of Swift source with SwiftParser: comments and string literals are never
/// mistaken for code (the false positives Tuist's line scanner has: #6706, #7281, #8455), and
/// every import carries the `#if` conditions it sits under, so a caller can tell an import this
/// platform compiles from one it never sees.
package enum ImportScanner {
    /// The references of each of `sources`, in order, parsed on every core at once (a worker
    /// a stride of sources, merged once, as the test cache's input check does). It blocks until
    /// all are parsed: call it off the cooperative pool.
    package static func references(inEach sources: [String]) -> [[ImportReference]] {
        let parsed = Mutex<[Int: [ImportReference]]>([:])
        let workers = max(1, min(sources.count, ProcessInfo.processInfo.activeProcessorCount * 4))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var found: [Int: [ImportReference]] = [:]
            for index in stride(from: worker, to: sources.count, by: workers) {
                found[index] = references(in: sources[index])
            }
            parsed.withLock { $0.merge(found) { first, _ in first } }
        }
        let all = parsed.withLock { $0 }
        // `concurrentPerform` runs every worker before it returns; a source none parsed would
        // still be parsed here rather than read as importing nothing.
        return sources.indices.map { all[$0] ?? references(in: sources[$0]) }
    }

    /// Every import and `canImport` in `source`, in order.
    package static func references(in source: String) -> [ImportReference] {
        scan(source).references
    }

    /// The references of `source`, from its ``ImportRegion`` alone when that is sure to read as
    /// the whole source does.
    ///
    /// The whole source is parsed instead when an import or an `#if` condition in the region
    /// comes out broken (a condition continued on a line past it), or when the region has an
    /// error with code after it: the cut changed how the lexer read what came before (an
    /// extended regex literal, which the lexer reads again from its first line break when it
    /// finds no end; a merge-conflict marker with no end marker). Errors at the very end are the
    /// cut's own: a scope, an `#if`, a literal or a comment left open.
    package static func scan(_ source: String) -> ImportScan {
        let region = ImportRegion(of: source)
        if region.length < source.utf8.count {
            let start = String(decoding: source.utf8.prefix(region.length), as: UTF8.self)
            let tree = Parser.parse(source: start)
            let finder = ImportFinder(lines: LineCounter(start))
            finder.walk(tree)
            if !finder.sawBrokenReference, errorsOnlyAtEnd(of: tree) {
                return ImportScan(references: finder.references, parsedWholeSource: false)
            }
        }
        return ImportScan(references: referencesParsingAll(of: source), parsedWholeSource: true)
    }

    /// Whether no error in `tree` (a missing, unexpected or malformed token) has a token after
    /// it but the end of the file.
    private static func errorsOnlyAtEnd(of tree: SourceFileSyntax) -> Bool {
        guard let problem = firstProblem(in: Syntax(tree)),
            let next = problem.nextToken(viewMode: .sourceAccurate)
        else { return true }
        return next.tokenKind == .endOfFile
    }

    /// The first node, in source order, that is itself an error; only the branches that hold
    /// one are walked.
    private static func firstProblem(in node: Syntax) -> Syntax? {
        guard node.hasError else { return nil }
        if node.is(TokenSyntax.self) || node.is(UnexpectedNodesSyntax.self) { return node }
        for child in node.children(viewMode: .all) {
            if let problem = firstProblem(in: child) { return problem }
        }
        return node
    }

    /// ``references(in:)`` from a parse of the whole of `source`: what the region must agree
    /// with.
    package static func referencesParsingAll(of source: String) -> [ImportReference] {
        let finder = ImportFinder(lines: LineCounter(source))
        finder.walk(Parser.parse(source: source))
        return finder.references
    }
}

/// What ``ImportScanner/scan(_:)`` found in a source.
package struct ImportScan: Sendable, Equatable {
    package var references: [ImportReference]
    /// Whether the whole source was parsed, rather than its ``ImportRegion``.
    package var parsedWholeSource: Bool
}

/// Walks a file's tree, keeping the `#if` branches it is inside as conditions.
private final class ImportFinder: SyntaxVisitor {
    private var lines: LineCounter
    private var branches = BranchStack()
    private(set) var references: [ImportReference] = []
    /// Whether an import or an `#if` condition had a part missing or unexpected.
    private(set) var sawBrokenReference = false

    private static let accessLevels: Set<String> = [
        "public", "package", "internal", "fileprivate", "private", "open",
    ]

    init(lines: LineCounter) {
        self.lines = lines
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        for (index, clause) in node.clauses.enumerated() {
            if clause.condition?.hasError == true || clause.unexpectedBetweenConditionAndElements != nil {
                sawBrokenReference = true
            }
            // Tokens left on the line after the condition make it one the compiler rejects.
            let condition = clause.condition.map {
                clause.unexpectedBetweenConditionAndElements == nil
                    ? CompilationCondition($0)
                    : .unreadable(clause.poundKeyword.text + " " + $0.trimmedDescription)
            }
            switch (index, condition) {
            case (0, let condition):
                branches.open(condition ?? .unreadable(clause.poundKeyword.text))
            case (_, let condition?):
                branches.elseIf(condition)
            case (_, nil):
                branches.else()
            }
            let line = lines.line(at: clause.poundKeyword.positionAfterSkippingLeadingTrivia)
            for module in condition?.canImportModules ?? [] {
                references.append(
                    ImportReference(
                        module: module, line: line, form: .canImport, condition: branches.enclosing))
            }
            if let elements = clause.elements { walk(elements) }
        }
        branches.close()
        return .skipChildren
    }

    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.hasError { sawBrokenReference = true }
        guard let component = node.path.first, component.name.presence == .present else {
            return .skipChildren
        }
        // `Foo` written in backticks is Foo.
        let written = component.name.text
        let module = written.hasPrefix("`") ? String(written.dropFirst().dropLast()) : written
        guard !module.isEmpty else { return .skipChildren }
        let attributes = node.attributes.compactMap {
            // Names only: `trimmedDescription` would rebuild the node, which cost as much as the parse.
            $0.as(AttributeSyntax.self).map { attribute in
                "@"
                    + (attribute.attributeName.as(IdentifierTypeSyntax.self)?.name.text
                        ?? attribute.attributeName.trimmedDescription)
            }
        }
        let accessLevel = node.modifiers.map(\.name.text).first { Self.accessLevels.contains($0) }
        references.append(
            ImportReference(
                module: module,
                line: lines.line(at: node.importKeyword.positionAfterSkippingLeadingTrivia),
                form: .import, attributes: attributes, accessLevel: accessLevel, condition: branches.current))
        return .skipChildren
    }
}

/// Lines of positions asked in source order, counted as the positions go: SwiftParser's own
/// `SourceLocationConverter` walks the whole tree to build its table first, which doubled the
/// scan's time, while imports sit near the top.
private struct LineCounter {
    private let bytes: String.UTF8View
    private var index: String.UTF8View.Index
    private var offset = 0
    private var line = 1

    init(_ source: String) {
        bytes = source.utf8
        index = bytes.startIndex
    }

    mutating func line(at position: AbsolutePosition) -> Int {
        if position.utf8Offset < offset { (index, offset, line) = (bytes.startIndex, 0, 1) }
        while offset < position.utf8Offset, index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            bytes.formIndex(after: &index)
            offset += 1
        }
        return line
    }
}

/// The `#if` branches the finder is inside, each as the condition under which it is compiled.
private struct BranchStack {
    private struct Frame {
        /// The conditions of the branches before the current one, which must all be false.
        var earlier: [CompilationCondition]
        /// The condition under which the current branch is compiled, given the frames outside.
        var active: CompilationCondition
    }

    private var frames: [Frame] = []

    /// The conjunction of every open branch's condition, or `nil` outside any `#if`.
    var current: CompilationCondition? {
        frames.isEmpty ? nil : CompilationCondition.all(frames.map(\.active))
    }

    /// The conditions around the innermost `#if`, for the `canImport`s its condition names.
    var enclosing: CompilationCondition? {
        frames.count <= 1 ? nil : CompilationCondition.all(frames.dropLast().map(\.active))
    }

    mutating func open(_ condition: CompilationCondition) {
        frames.append(Frame(earlier: [condition], active: condition))
    }

    mutating func elseIf(_ condition: CompilationCondition) {
        guard var frame = frames.popLast() else { return }
        frame.active = .all(frame.earlier.map { .not($0) } + [condition])
        frame.earlier.append(condition)
        frames.append(frame)
    }

    mutating func `else`() {
        guard var frame = frames.popLast() else { return }
        frame.active = .all(frame.earlier.map { .not($0) })
        frames.append(frame)
    }

    mutating func close() {
        _ = frames.popLast()
    }
}
