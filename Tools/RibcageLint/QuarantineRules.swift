import Foundation
import RibcagePackage

extension Linter {
    /// (f) Each row of Project.swift.md's Quarantine table can be applied and names a test that
    /// exists: a test target of the package whose sources declare the test's function (and its
    /// suite's type, when it has one). A quarantine of a renamed or deleted test would otherwise
    /// hide nothing and be forgotten.
    func quarantineChecks() -> [Diagnostic] {
        guard let manifest else { return [] }
        // A test names its target's module (`My_Tests` for a target named `My-Tests`).
        let testTargets = Dictionary(
            package.targets.filter(\.isTest).map { (TestCaseFilter.moduleName(ofTarget: $0.name), $0.name) },
            uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var found: [Diagnostic] = []
        func report(_ message: String) {
            found.append(
                Diagnostic(
                    file: "Project.swift.md", line: 1, severity: .error, rule: "quarantine", message: message)
            )
        }
        for cells in manifest.quarantineRows {
            let entry: Quarantine.Entry
            do {
                entry = try Quarantine.entry(cells: cells)
            } catch {
                report(String(describing: error))
                continue
            }
            guard seen.insert(entry.test).inserted else {
                report("\(entry.test) is quarantined twice")
                continue
            }
            guard let testTarget = testTargets[entry.testTarget] else {
                report("quarantined test \(entry.test): the package has no test target \(entry.testTarget)")
                continue
            }
            guard Self.declares(entry.test, in: sources[testTarget] ?? []) else {
                report(
                    "quarantined test \(entry.test) is not declared in \(testTarget)'s sources "
                        + "(renamed or deleted? lift its quarantine)")
                continue
            }
        }
        return found
    }

    /// Whether `files` declare the test `id`: its function, and the innermost type of its suite
    /// when it is not at the top level. A lexical check, as the rest of lint: the build is not
    /// needed, and a test's name is its declaration's.
    package static func declares(_ id: String, in files: [SourceFile]) -> Bool {
        let (suite, name) = TestCaseFilter.split(id)
        let function = String(name.prefix { $0 != "(" })
        let types = suite.split(separator: ".").dropFirst()
        let functionPattern = "\\bfunc\\s+`?\(NSRegularExpression.escapedPattern(for: function))`?\\s*[(<]"
        let typePattern = types.last.map {
            "\\b(class|struct|enum|actor|extension)\\s+\(NSRegularExpression.escapedPattern(for: String($0)))\\b"
        }
        let matches = { (pattern: String, text: String) in
            text.range(of: pattern, options: .regularExpression) != nil
        }
        let declaresFunction = files.contains { matches(functionPattern, $0.text) }
        let declaresType = typePattern.map { pattern in files.contains { matches(pattern, $0.text) } } ?? true
        return declaresFunction && declaresType
    }
}
