import Foundation

/// `swift test --filter` and `--skip` patterns that select single test cases, from the names
/// `ribcage test` prints (`Target.Suite/name`, ``TestCaseResult/id``).
///
/// The two test libraries match patterns against different names. XCTest matches
/// `Target.Class/method`, which is the printed name. Swift Testing matches its test IDs:
/// `Target.Suite/Nested/name()/File.swift:12:5` inside types and `Target.name()/File.swift:3:2`
/// at the top level, so the printed `Target/name()` matches nothing. A Swift Testing name always
/// ends with `)` (a function's name with its argument labels); an XCTest method never does,
/// which is how the two are told apart.
package enum TestCaseFilter {
    /// The suite and the test's name of `id`, split at the first `/`.
    package static func split(_ id: String) -> (suite: String, name: String) {
        guard let slash = id.firstIndex(of: "/") else { return (id, "") }
        return (String(id[..<slash]), String(id[id.index(after: slash)...]))
    }

    /// The module of the test `id`: the suite's first component. It is the test target's
    /// ``moduleName(ofTarget:)``, which is the target's name when that is an identifier.
    package static func testTarget(ofTest id: String) -> String {
        String(split(id).suite.prefix { $0 != "." && $0 != "/" })
    }

    /// The module SwiftPM compiles the target `name` into, which is what both test libraries
    /// name its tests after: each character that cannot be in an identifier becomes `_`
    /// (`My-Tests` is `My_Tests`), and a leading digit gets one before it.
    package static func moduleName(ofTarget name: String) -> String {
        var module = String(name.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if module.first?.isNumber == true { module = "_" + module }
        return module
    }

    /// A pattern that matches the test `id` and no other.
    package static func pattern(for id: String) -> String {
        let (suite, name) = split(id)
        guard name.hasSuffix(")") else {
            return "^" + NSRegularExpression.escapedPattern(for: "\(suite)/\(name)") + "$"
        }
        let components = suite.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let module = components.first ?? suite
        let types = components.dropFirst()
        let testID = types.isEmpty ? "\(module).\(name)" : "\(module).\(types.joined(separator: "/"))/\(name)"
        return "^" + NSRegularExpression.escapedPattern(for: testID) + "(/|$)"
    }

    /// One pattern that matches exactly the tests `ids`.
    package static func pattern(for ids: some Sequence<String>) -> String {
        "(" + ids.map { pattern(for: $0) }.joined(separator: "|") + ")"
    }
}
