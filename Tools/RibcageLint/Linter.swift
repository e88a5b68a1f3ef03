import BlockingWork
import Foundation
import RibcagePackage

/// A lint finding, printed compiler-style: `path:line: error: message [rule]`.
package struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    /// How bad it is.
    package enum Severity: String, Sendable, Codable {
        case error, warning
    }

    /// The file, relative to the package root.
    package var file: String
    /// The line, from 1.
    package var line: Int
    /// Error or warning.
    package var severity: Severity
    /// The rule: `manifest`, `layers`, `cycle`, `implicit-import` or `redundant-dependency`.
    package var rule: String
    /// What is wrong.
    package var message: String

    /// `path:line: error: message [rule]`.
    package var description: String { "\(file):\(line): \(severity.rawValue): \(message) [\(rule)]" }
}

/// Checks a package against its Project.swift.md and its own sources:
/// (a) the manifest agrees with Package.swift, (b) dependencies follow the layer rules,
/// (c) there are no cycles, (d) every import is a declared dependency, (e) every declared
/// dependency is imported, (f) every test in the Quarantine table exists, (g) each module's Role is
/// what the package exports, (h) every test target in the Untraced test targets table exists.
///
/// Imports are judged for a debug build on this machine: an import under an `#if` that is false
/// here (`#if os(Windows)`, `#if canImport(Network)`) is not compiled, so it is not a finding;
/// a module of any platform's SDK never needs declaring.
package struct Linter: Sendable {
    /// The package, as ``PackageLoader`` read it.
    package var package: DescribedPackage
    /// Its Project.swift.md, if it has one; checks (a) and (b) need it.
    package var manifest: ProjectManifest?
    /// Each target's Swift sources: file path (relative to the root) and text.
    package var sources: [String: [SourceFile]]
    /// The toolchain whose SDK and version the imports are judged against.
    package var toolchain: Toolchain
    /// The text of Package.swift, to point findings at the line that declares a target.
    package var manifestText: String
    /// The modules of other packages' products, keyed `package/product`, when their manifests
    /// could be read; a product missing here is taken to be the module of its own name.
    package var productModules: [String: [String]] = [:]

    /// A source file of a target.
    package struct SourceFile: Sendable {
        /// The path relative to the package root.
        package let path: String
        /// The file's text.
        package let text: String
        /// Its imports and `canImport` uses, read once with the file: parsing is most of lint's
        /// time, and several checks ask.
        package let references: [ImportReference]

        /// A file at `path` with `text`, parsed now.
        package init(path: String, text: String) {
            self.init(path: path, text: text, references: ImportScanner.references(in: text))
        }

        init(path: String, text: String, references: [ImportReference]) {
            self.path = path
            self.text = text
            self.references = references
        }
    }

    package init(
        package: DescribedPackage, manifest: ProjectManifest?, sources: [String: [SourceFile]],
        toolchain: Toolchain, manifestText: String = ""
    ) {
        self.package = package
        self.manifest = manifest
        self.sources = sources
        self.toolchain = toolchain
        self.manifestText = manifestText
    }

    /// Reads the Swift sources of every target of `package` from disk.
    ///
    /// - Throws: ``RibcageError/unreadableSource(_:)`` for a listed file that cannot be read as
    ///   UTF-8, rather than judging the target without it.
    ///
    /// The files are parsed on every core at once (`DispatchQueue.concurrentPerform`), so call
    /// it off the cooperative pool, as ``readSourcesOffThePool(of:root:)`` does.
    package static func readSources(of package: DescribedPackage, root: URL) throws -> [String: [SourceFile]]
    {
        var read: [(target: String, path: String, text: String)] = []
        for target in package.targets {
            for source in target.sources where source.hasSuffix(".swift") {
                let relative = "\(target.path)/\(source)"
                do {
                    let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                    read.append((target.name, relative, text))
                } catch {
                    throw RibcageError.unreadableSource(relative)
                }
            }
        }
        let references = ImportScanner.references(inEach: read.map(\.text))
        var result: [String: [SourceFile]] = Dictionary(
            package.targets.map { ($0.name, []) }, uniquingKeysWith: { first, _ in first })
        for (file, found) in zip(read, references) {
            result[file.target, default: []].append(
                SourceFile(path: file.path, text: file.text, references: found))
        }
        return result
    }

    /// ``readSources(of:root:)`` for async callers, on a thread of its own: it reads every
    /// source file of the package, which must not hold a thread of the cooperative pool.
    package static func readSourcesOffThePool(of package: DescribedPackage, root: URL) async throws
        -> [String: [SourceFile]]
    {
        try await DedicatedThread.run(named: "ribcage-lint-sources") {
            try readSources(of: package, root: root)
        }
    }

    /// Every finding, sorted by file and line.
    package func diagnostics() -> [Diagnostic] {
        var found =
            manifestAgreement() + layerRules() + cycles() + importChecks() + quarantineChecks() + roleChecks()
            + untracedChecks() + localOnlyChecks()
        found.sort { ($0.file, $0.line, $0.message) < ($1.file, $1.line, $1.message) }
        return found
    }

    /// The line of Package.swift that declares `target`, or 1 when the manifest builds its names
    /// in code: a `.target(name: "X"` call first, then any `name: "X"` that is not a product's,
    /// then a `("X"` or a line that starts with `"X"` (a Ribcage-style modules table).
    func manifestLine(of target: String) -> Int {
        let lines = manifestText.split(separator: "\n", omittingEmptySubsequences: false)
        let quoted = "\"\(target)\""
        let tests: [(Substring) -> Bool] = [
            {
                $0.contains("arget(name: \(quoted)") || $0.contains("macro(name: \(quoted)")
                    || $0.contains("plugin(name: \(quoted)")
            },
            { $0.contains("name: \(quoted)") && !$0.contains(".library(") && !$0.contains(".executable(") },
            { $0.contains("(\(quoted)") || $0.trimmingCharacters(in: .whitespaces).hasPrefix(quoted) },
        ]
        for test in tests {
            if let index = lines.firstIndex(where: test) { return index + 1 }
        }
        return 1
    }
}
