import SwiftParser
import SwiftSyntax

/// The imports of a source as SwiftParser finds them: every import declaration in its tree,
/// those inside `#if` clauses too.
///
/// `bench graph` times it on the import scan's sources against `ImportScanner`, the question of
/// issue #34 (item 4): could lint read imports with SwiftParser instead of its own scanner? It
/// is a lower bound of what lint would pay, which would also evaluate each clause's condition
/// (SwiftIfConfig) and find `canImport` uses.
enum SwiftParserImports {
    static func count(in source: String) -> Int {
        let counter = ImportCounter(viewMode: .sourceAccurate)
        counter.walk(Parser.parse(source: source))
        return counter.count
    }

    private final class ImportCounter: SyntaxVisitor {
        var count = 0

        override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
            count += 1
            return .skipChildren
        }
    }
}
