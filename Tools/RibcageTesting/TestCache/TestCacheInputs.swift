import BlockingWork
import ContentDigest
import Foundation
import RibcagePackage
import Synchronization

/// Gathers the inputs of ``TestCacheKey``s for the test targets of one package.
///
/// Sources and resources are taken as every file under each target's folder (excluded files
/// included: a file left out of the build might be read by a test, and a key that misses an
/// input would hand out a wrong green). Files are read by content; a `touch` changes nothing.
package struct TestCacheInputs: Sendable {
    /// The package's root folder.
    package let root: URL
    /// The package, for each target's folder and dependencies.
    package let package: DescribedPackage
    /// The parts every key shares: manifests, resolved versions, toolchain, configuration and
    /// declared environment variables.
    package let sharedParts: [TestCacheKey.Part]
    /// The folders of the package's local (`.package(path:)`) dependencies.
    package var localDependencies: [URL] { localFolders.keys.sorted().compactMap { localFolders[$0] } }
    /// The folder of each local dependency, by identity.
    private let localFolders: [String: URL]
    /// The environment variables Project.swift.md declares as test inputs.
    package let declaredVariables: Set<String>
    /// The package's targets by name, as the keys' tree needs them (``KeyedTarget``).
    let keyedTargets: [String: KeyedTarget]
    /// Each target's files and tree digest, as the last ``keys(for:withParts:)`` hashed them: a
    /// recorded program's digest (``sourcesDigest(ofTarget:)``) is its target's tree digest
    /// rather than its closure's files hashed again, which took a look-up of 500 suites 400 ms,
    /// and a recorded file the keys read takes their digest (``changedInputs(of:)``).
    let hashedFiles = HashedTargetFiles()

    /// The inputs of `package` at `root`.
    ///
    /// - Parameters:
    ///   - toolchain: What `swift --version` printed.
    ///   - configuration: `debug` or `release`.
    ///   - flags: The arguments `ribcage test` passes to SwiftPM that can change a result.
    ///   - environment: This process's environment.
    ///   - declaredVariables: The variables Project.swift.md lists under "Test inputs".
    package init(
        root: URL, package: DescribedPackage, toolchain: String, configuration: String, flags: [String],
        environment: [String: String], declaredVariables: [String]
    ) throws {
        self.root = root
        self.package = package
        self.declaredVariables = Set(declaredVariables)
        var parts: [TestCacheKey.Part] = []
        let rootFiles = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        for name in rootFiles
        where name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift")) {
            parts.append(
                .init(
                    kind: .manifest, name: name,
                    digest: try Self.digest(of: root.appendingPathComponent(name))))
        }
        // A local dependency is built from its folder as it is now, with no version to pin it:
        // every file of it (its own tests and .build left out) is an input of the targets that
        // use it.
        var localFolders: [String: URL] = [:]
        var localPackageParts: [String: TestCacheKey.Part] = [:]
        for (identity, path) in package.localDependencyFolders {
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            let files = try FileTreeDigests.files(under: folder.path).sorted { $0.path < $1.path }
            var hasher = SHA256()
            for file in files {
                hasher.update("file \(file.path.utf8.count):\(file.path) \(file.digest)\n")
            }
            localFolders[identity] = folder
            localPackageParts[identity] = .init(
                kind: .localPackage, name: Self.path(of: folder, from: root), digest: hasher.finalize(),
                detail: "\(files.count) files")
        }
        self.localFolders = localFolders
        keyedTargets = KeyedTarget.all(of: package, localPackageParts: localPackageParts)
        let resolved = root.appendingPathComponent("Package.resolved")
        if FileManager.default.fileExists(atPath: resolved.path) {
            parts.append(
                .init(kind: .resolved, name: "Package.resolved", digest: try Self.digest(of: resolved)))
        } else {
            parts.append(
                .init(kind: .resolved, name: "Package.resolved", digest: SHA256.hex(""), detail: "absent"))
        }
        parts.append(
            .init(
                kind: .toolchain, name: "swift --version", digest: SHA256.hex(toolchain),
                detail: toolchain.split(separator: "\n").first.map(String.init)))
        let configurationText = ([configuration] + flags).joined(separator: " ")
        parts.append(
            .init(
                kind: .configuration, name: "configuration and flags", digest: SHA256.hex(configurationText),
                detail: configurationText))
        for variable in Set(declaredVariables).sorted() {
            // Unset and set-to-empty are different inputs: tests may read either.
            let value = environment[variable].map { "set:" + $0 } ?? "unset"
            parts.append(.init(kind: .environment, name: variable, digest: SHA256.hex(value)))
        }
        sharedParts = parts
    }

    /// The SHA-256 over the files of `target` and of every target it depends on, by path and
    /// content: what a program of the package is built from. It is the target's digest in the
    /// keys' Merkle tree, so once the keys are made it costs nothing; a target no key needed is
    /// hashed then.
    ///
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` for a name that is no target, or the
    ///   file system's error when a file cannot be read.
    package func sourcesDigest(ofTarget target: String) throws -> String {
        if let known = hashedFiles.trees.withLock({ $0[target] }) { return known }
        _ = try keys(for: [target])
        guard let digest = hashedFiles.trees.withLock({ $0[target] }) else {
            throw RibcageError.unknownModules([target], known: package.targets.map(\.name).sorted())
        }
        return digest
    }

    /// The absolute path of a target's folder, `path` from the package root at `rootPath`: by
    /// joining strings, as `URL`'s `appendingPathComponent` and `standardizedFileURL` for each of
    /// a thousand targets cost more than walking their folders. A path with `.` or `..` in it
    /// (which SwiftPM allows) is still standardized, as the kernel would follow it.
    static func folder(_ path: String, under rootPath: String) -> String {
        let joined = path.utf8.first == UInt8(ascii: "/") ? path : rootPath + "/" + path
        // One pass over the bytes for a component that is empty, `.` or `..` (splitting into
        // substrings to compare cost as much as the URL).
        var length = 0
        var dots = 0
        var plain = true
        for byte in joined.utf8.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (length == dots && length <= 2) { plain = false }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        if length == 0 || (length == dots && length <= 2) { plain = false }
        return plain ? joined : URL(fileURLWithPath: joined, isDirectory: true).standardizedFileURL.path
    }

    /// `folder` relative to `root` (`../Shared`), so a key holds on a clone elsewhere.
    static func path(of folder: URL, from root: URL) -> String {
        let from = root.standardizedFileURL.pathComponents
        let to = folder.standardizedFileURL.pathComponents
        let common = zip(from, to).prefix { $0 == $1 }.count
        guard common > 1 else { return folder.standardizedFileURL.path }
        let relative = Array(repeating: "..", count: from.count - common) + to[common...]
        return relative.isEmpty ? "." : relative.joined(separator: "/")
    }

    /// The SHA-256 of a file's bytes.
    static func digest(of file: URL) throws -> String {
        try FileTreeDigests.digest(ofFile: file.path)
    }

    /// The variables under `## Test inputs` in Project.swift.md: a table whose first column
    /// names an environment variable that can change a test's result.
    package static func declaredVariables(packageAt root: URL) throws -> [String] {
        let file = root.appendingPathComponent("Project.swift.md")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let markdown = try String(contentsOf: file, encoding: .utf8)
        return ProjectManifest.table(named: "Test inputs", in: markdown).compactMap(\.first).filter {
            !$0.isEmpty
        }
    }
}

extension TestCacheInputs {
    /// The visible names of each folder the keys walked, by its path from the root, as they
    /// listed it.
    func walkedListings() -> [String: [String]] {
        hashedFiles.listings.withLock { $0 }
    }

    /// The digest of each file the keys have hashed, by its path from the root, as they read it.
    func hashedFileDigests() -> [String: String] {
        hashedFiles.files.withLock { files in
            var digests: [String: String] = [:]
            for parts in files.values {
                for part in parts { digests[part.name] = part.digest }
            }
            return digests
        }
    }
}

/// The files of the targets a ``TestCacheInputs`` has hashed, and their digests in the keys'
/// tree, shared by its copies.
final class HashedTargetFiles: Sendable {
    let files = Mutex<[String: [TestCacheKey.Part]]>([:])
    /// The visible names of each folder the walk listed, by its path from the root.
    let listings = Mutex<[String: [String]]>([:])
    let trees = Mutex<[String: String]>([:])
}
