import BlockingWork
import ContentDigest
import Foundation
import RibcagePackage

/// A target as the keys' Merkle tree needs it, worked out once per ``TestCacheInputs``: a look-up
/// visits each of a thousand targets several times, and a ``DescribedPackage/Target`` (names,
/// sources, settings) costs a retain per field at each copy, and its dependencies a filter at
/// each visit.
struct KeyedTarget: Sendable {
    /// The target's folder, relative to the package root.
    var path: String
    /// The package's targets it depends on, each once, by name: the order their digests are
    /// hashed in. A dependency that is no target of the package is left out.
    var dependencies: [String]
    /// The parts of the local (`.package(path:)`) dependencies whose products it uses: every
    /// file of such a dependency is an input of the targets that use it. All of them for a
    /// product named without its package, which could come from any.
    var localParts: [TestCacheKey.Part]

    /// Every target of `package`, by name (the first of two with one name).
    static func all(
        of package: DescribedPackage, localPackageParts: [String: TestCacheKey.Part]
    ) -> [String: KeyedTarget] {
        let names = Set(package.targets.map(\.name))
        var targets: [String: KeyedTarget] = [:]
        for target in package.targets where targets[target.name] == nil {
            var identities: Set<String> = []
            for dependency in target.dependencies {
                guard case .product(let package) = dependency.kind else { continue }
                if let package {
                    if localPackageParts[package.lowercased()] != nil {
                        identities.insert(package.lowercased())
                    }
                } else {
                    identities.formUnion(localPackageParts.keys)
                }
            }
            targets[target.name] = KeyedTarget(
                path: target.path,
                dependencies: Set(target.targetDependencies).filter(names.contains).sorted(),
                localParts: identities.sorted().compactMap { localPackageParts[$0] })
        }
        return targets
    }
}

extension TestCacheInputs {
    /// The keys of `testTargets`.
    ///
    /// The key is a Merkle tree over the targets: each target's digest covers its files and the
    /// digests of the targets it depends on, so a change anywhere below a test target changes its
    /// key, each target is hashed once however many test targets need it, and a key costs one
    /// hash of a few lines rather than one line per file of its whole closure.
    ///
    /// - Parameter withParts: Also list every part (each file of the closure), for
    ///   `--explain-cache` and for the entries stored; the hash is the same either way.
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` for a name that is no target, or the
    ///   file system's error when a file cannot be read.
    package func keys(for testTargets: [String], withParts: Bool = false) throws -> [String: TestCacheKey] {
        // Every target the keys need is walked first, on all cores, each one's own lines hashed
        // there too; what is left here, the lines naming its dependencies' digests, is short.
        var needed: Set<String> = []
        var frontier = testTargets
        while let name = frontier.popLast() {
            guard !needed.contains(name) else { continue }
            guard let target = keyedTargets[name] else { throw unknownTarget(name) }
            needed.insert(name)
            frontier += target.dependencies
        }
        // Sorted, so that of two unreadable folders the same one is named on every run.
        let walked = try walk(needed.sorted())
        hashedFiles.files.withLock { files in
            for (name, target) in walked { files[name] = target.files }
        }
        var treeDigests: [String: String] = [:]
        defer { hashedFiles.trees.withLock { [treeDigests] in $0.merge(treeDigests) { $1 } } }
        func treeDigest(_ name: String) throws -> String {
            if let known = treeDigests[name] { return known }
            guard let target = keyedTargets[name], var hasher = walked[name]?.ownLines else {
                throw unknownTarget(name)
            }
            for dependency in target.dependencies {
                hasher.update(
                    "depends \(dependency.utf8.count):\(dependency) \(try treeDigest(dependency))\n")
            }
            let digest = hasher.finalize()
            treeDigests[name] = digest
            return digest
        }

        var shared = SHA256()
        shared.update("\(TestCacheKey.recipe)\n")
        for part in sharedParts {
            shared.update("\(part.kind.rawValue) \(part.name.utf8.count):\(part.name) \(part.digest)\n")
        }
        var keys: [String: TestCacheKey] = [:]
        for testTarget in testTargets {
            var hasher = shared
            hasher.update(
                "test-target \(testTarget.utf8.count):\(testTarget) \(try treeDigest(testTarget))\n")
            var parts: [TestCacheKey.Part] = []
            if withParts {
                parts =
                    sharedParts + [.init(kind: .testTarget, name: testTarget, digest: SHA256.hex(testTarget))]
                var local: Set<TestCacheKey.Part> = []
                for name in try closure(of: testTarget) {
                    parts += walked[name]?.files ?? []
                    local.formUnion(keyedTargets[name]?.localParts ?? [])
                }
                parts += local
            }
            keys[testTarget] = TestCacheKey(testTarget: testTarget, parts: parts, hash: hasher.finalize())
        }
        return keys
    }

    /// ``keys(for:withParts:)`` for async callers, on a thread of its own: the walk blocks on
    /// file reads and on the other cores' share of the hashing, which must not hold a thread of
    /// the cooperative pool.
    package func keysOffThePool(
        for testTargets: [String], withParts: Bool = false
    ) async throws -> [String: TestCacheKey] {
        try await DedicatedThread.run(named: "ribcage-test-cache-keys") {
            try keys(for: testTargets, withParts: withParts)
        }
    }

    /// `name` and every target it depends on, directly or not, sorted.
    ///
    /// - Throws: ``RibcageError/unknownModules(_:known:)`` for a name that is no target.
    func closure(of name: String) throws -> [String] {
        guard keyedTargets[name] != nil else { throw unknownTarget(name) }
        var found: Set<String> = [name]
        var frontier = [name]
        while let current = frontier.popLast() {
            for dependency in keyedTargets[current]?.dependencies ?? []
            where found.insert(dependency).inserted {
                frontier.append(dependency)
            }
        }
        return found.sorted()
    }

    /// The folders, relative to the package root, of ``closure(of:)``'s targets.
    package func closureFolders(of name: String) throws -> [String] {
        try closure(of: name).compactMap { keyedTargets[$0]?.path }
    }

    private func unknownTarget(_ name: String) -> RibcageError {
        RibcageError.unknownModules([name], known: package.targets.map(\.name).sorted())
    }

    /// What the walk of one target's folder gave its key.
    struct WalkedTarget: Sendable {
        /// A part per file under the folder, by path from the package root, sorted by path (the
        /// order a file system lists a folder in is no input).
        var files: [TestCacheKey.Part]
        /// The target's digest so far: its name, its files and its local dependencies' parts,
        /// in the recipe's lines. The lines of the targets it depends on come last.
        var ownLines: SHA256
    }

    /// Walks the folders of the targets `names`, on all cores, and hashes each one's own lines
    /// on the core that walked it; notes the folders listed, for recorded listings.
    private func walk(_ names: [String]) throws -> [String: WalkedTarget] {
        let rootPath = root.standardizedFileURL.path
        let targets = try names.map { name in
            guard let target = keyedTargets[name] else { throw unknownTarget(name) }
            return (name: name, target: target)
        }
        let folders = targets.map { Self.folder($0.target.path, under: rootPath) }
        let results = try FileTreeDigests.files(underEach: folders) { index, walked in
            let (name, target) = targets[index]
            let path = target.path
            let files =
                walked.files
                .map { TestCacheKey.Part(kind: .file, name: "\(path)/\($0.path)", digest: $0.digest) }
                .sorted { $0.name < $1.name }
            var hasher = SHA256()
            hasher.update("target \(name.utf8.count):\(name)\n")
            for part in files {
                hasher.update("file \(part.name.utf8.count):\(part.name) \(part.digest)\n")
            }
            for part in target.localParts {
                hasher.update("local-package \(part.name.utf8.count):\(part.name) \(part.digest)\n")
            }
            let listings = walked.listings.map { ($0.path.isEmpty ? path : path + "/" + $0.path, $0.names) }
            return (WalkedTarget(files: files, ownLines: hasher), listings)
        }
        var walked: [String: WalkedTarget] = [:]
        walked.reserveCapacity(names.count)
        for (name, result) in zip(names, results) { walked[name] = result.0 }
        hashedFiles.listings.withLock { listings in
            for (_, folders) in results {
                for (path, names) in folders { listings[path] = names }
            }
        }
        return walked
    }
}
