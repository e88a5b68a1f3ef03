import SwiftParser
import SwiftSyntax

/// The top-level types of a test target's Swift sources and the Swift Testing tests under each,
/// read with SwiftParser: what `ribcage test --remote-shards` deals out among a test target's
/// actions.
///
/// A top-level type is the unit because Swift Testing names every test under it with the
/// type's name first (`Module.Type/test()`, `Module.Type/Nested/test()`), so one filter per
/// type selects exactly its tests wherever they are declared: in the type, in a nested type, in
/// an extension in another file. Tests that are free functions belong to no type; the caller
/// keeps them in the shard that takes whatever no other shard names.
package struct TestSuiteOutline: Sendable, Equatable {
    /// The types declared at file scope (struct, class, enum, actor), by name.
    package var declaredTypes: Set<String> = []
    /// The number of `@Test` functions under each top-level type, declared or extended, by the
    /// type's name; types with none are left out. Comments and string literals that spell
    /// `@Test` count for nothing.
    package var testsByType: [String: Int] = [:]
    /// The typealiases at file scope: each name, and the outermost name of the type it stands for.
    package var typealiases: [String: String] = [:]

    package init() {}

    /// The outline of one source file.
    ///
    /// - Parameter module: the module the file is compiled into: `extension Module.Suite`
    ///   extends this module's `Suite`.
    package init(source: String, module: String? = nil) {
        let finder = TopLevelTestFinder(module: module)
        finder.walk(Parser.parse(source: source))
        self = finder.outline
    }

    /// The tests under the types the sources declare. An extension of a type declared
    /// elsewhere (`extension String`, a library's type, a typealias) names its tests after
    /// that type and its module, not this one, so it is left out: a filter for it here would
    /// select nothing.
    package var testsByDeclaredType: [String: Int] {
        testsByType.filter { declaredTypes.contains($0.key) }
    }

    /// The tests in extensions of types these sources neither declare nor alias, by the
    /// extended type's name (`String`, a library's type). Swift Testing names them after that
    /// type's module (`Swift.String/test()`), so no filter on the test target's module selects
    /// them.
    package var testsInForeignExtensions: [String: Int] {
        testsByType.filter { name, _ in !isDeclared(name) }
    }

    /// Whether `name` is a type of these sources, or an alias of one (through other aliases).
    private func isDeclared(_ name: String) -> Bool {
        var name = name
        for _ in 0...typealiases.count {
            if declaredTypes.contains(name) { return true }
            guard let aliased = typealiases[name] else { return false }
            name = aliased
        }
        return false
    }

    /// This outline and `other`'s together: the outline of both files.
    package mutating func add(_ other: TestSuiteOutline) {
        declaredTypes.formUnion(other.declaredTypes)
        testsByType.merge(other.testsByType, uniquingKeysWith: +)
        typealiases.merge(other.typealiases) { first, _ in first }
    }

    /// ``testsInForeignExtensions`` of one test target's sources, parsing only what it must: the
    /// files that have both an extension and a `@Test`, then, if they extend a type they do not
    /// declare, the rest of the target, which may declare it.
    package static func testsInForeignExtensions(ofTarget sources: [String], module: String? = nil)
        -> [String: Int]
    {
        let mayExtend = sources.indices.filter {
            sources[$0].contains("extension") && sources[$0].contains("@Test")
        }
        var outline = TestSuiteOutline()
        for index in mayExtend { outline.add(TestSuiteOutline(source: sources[index], module: module)) }
        guard !outline.testsInForeignExtensions.isEmpty else { return [:] }
        for index in sources.indices where !mayExtend.contains(index) {
            outline.add(TestSuiteOutline(source: sources[index], module: module))
        }
        return outline.testsInForeignExtensions
    }
}

/// Walks the declarations at file scope (inside `#if` blocks too) and counts the `@Test`
/// attributes under each type or extension.
private final class TopLevelTestFinder: SyntaxVisitor {
    var outline = TestSuiteOutline()
    let module: String?

    init(module: String?) {
        self.module = module
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        if let alias = node.item.as(TypeAliasDeclSyntax.self) {
            if let name = alias.name.identifier?.name,
                let aliased = outermostName(of: alias.initializer.value)
            {
                outline.typealiases[name] = aliased
            }
            return .skipChildren
        }
        guard let (name, declared) = topLevelName(of: node.item) else {
            // `#if` blocks hold more file-scope items; anything else is not a suite.
            return node.item.is(IfConfigDeclSyntax.self) ? .visitChildren : .skipChildren
        }
        if declared { outline.declaredTypes.insert(name) }
        let tests = TestAttributeCounter(viewMode: .sourceAccurate)
        tests.walk(node.item)
        if tests.count > 0 { outline.testsByType[name, default: 0] += tests.count }
        return .skipChildren
    }

    /// The type's name as Swift Testing writes it (without backticks; for an extension of a
    /// nested type, `extension Outer.Inner`, the outermost name), and whether it is declared
    /// here rather than extended.
    private func topLevelName(of item: CodeBlockItemSyntax.Item) -> (String, declared: Bool)? {
        let name: TokenSyntax
        if let type = item.as(StructDeclSyntax.self) {
            name = type.name
        } else if let type = item.as(ClassDeclSyntax.self) {
            name = type.name
        } else if let type = item.as(EnumDeclSyntax.self) {
            name = type.name
        } else if let type = item.as(ActorDeclSyntax.self) {
            name = type.name
        } else if let extended = item.as(ExtensionDeclSyntax.self) {
            return outermostName(of: extended.extendedType).map { ($0, false) }
        } else {
            return nil
        }
        return name.identifier.map { ($0.name, true) }
    }

    /// The outermost name of `type` as Swift Testing names its suite: `Outer` for `Outer.Inner`,
    /// `Suite` for this module's `Module.Suite`, and the standard library's type for the sugar
    /// `[T]`, `[K: V]` and `T?`.
    private func outermostName(of type: TypeSyntax) -> String? {
        var path: [String] = []
        var part = type
        while let member = part.as(MemberTypeSyntax.self) {
            path.insert(member.name.identifier?.name ?? member.name.text, at: 0)
            part = member.baseType
        }
        if let plain = part.as(IdentifierTypeSyntax.self) {
            path.insert(plain.name.identifier?.name ?? plain.name.text, at: 0)
        } else if part.is(ArrayTypeSyntax.self) {
            path.insert("Array", at: 0)
        } else if part.is(DictionaryTypeSyntax.self) {
            path.insert("Dictionary", at: 0)
        } else if part.is(OptionalTypeSyntax.self) || part.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            path.insert("Optional", at: 0)
        } else {
            return nil
        }
        if path.count > 1, path[0] == module { path.removeFirst() }
        return path.first
    }
}

/// Counts `@Test` attributes (and `@Testing.Test`) anywhere under a declaration.
private final class TestAttributeCounter: SyntaxVisitor {
    var count = 0

    override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
        let name = node.attributeName.trimmedDescription
        if name == "Test" || name == "Testing.Test" { count += 1 }
        return .skipChildren
    }
}
