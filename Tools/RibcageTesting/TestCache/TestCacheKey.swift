import ContentDigest
/// The content address of a test target's result: a SHA-256 over everything that can change it.
///
/// The key is made of named parts, each with its own digest, so `--explain-cache` can say which
/// part changed since the last entry. What goes in is decided by ``TestCacheInputs``: every file
/// of the test target's folder and of each module it depends on transitively (by content and
/// path, never by mtime), the manifests, `Package.resolved`, the toolchain, the configuration and
/// flags, and the environment variables Project.swift.md declares as test inputs.
package struct TestCacheKey: Sendable, Equatable, Codable {
    /// One input of the key.
    package struct Part: Sendable, Equatable, Hashable, Codable {
        /// What kind of input it is; the kinds sort in this order in listings.
        package enum Kind: String, Sendable, Codable, CaseIterable, Comparable {
            /// The test target's name (two targets with the same files are two results).
            case testTarget = "test-target"
            /// A file of the test target or of a module it depends on, by path from the root.
            case file
            /// `Package.swift` or a `Package@swift-*.swift`.
            case manifest
            /// `Package.resolved`: the versions of the dependencies.
            case resolved
            /// Every file of a local (`.package(path:)`) dependency, by its path from the root.
            case localPackage = "local-package"
            /// `swift --version`: compiler, version and target triple.
            case toolchain
            /// The build configuration and the flags `ribcage test` builds and runs with.
            case configuration
            /// A variable Project.swift.md declares as a test input.
            case environment

            package static func < (lhs: Kind, rhs: Kind) -> Bool {
                allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
            }
        }

        /// The kind of input.
        package var kind: Kind
        /// The file's path, the variable's name, or the part's own name.
        package var name: String
        /// The SHA-256 of the input's bytes.
        package var digest: String
        /// What a person may see of the value (the toolchain's first line, the configuration);
        /// nil for file contents and for variables, whose values may be secrets.
        package var detail: String?

        /// A part of `kind` named `name` with `digest`.
        package init(kind: Kind, name: String, digest: String, detail: String? = nil) {
            self.kind = kind
            self.name = name
            self.digest = digest
            self.detail = detail
        }
    }

    /// The test target the key is for.
    package var testTarget: String
    /// The parts, sorted by kind, then name.
    package var parts: [Part]
    /// The key: 64 lowercase hex digits.
    package var hash: String

    /// The action key under which the cache keeps the last red run with this key: derived from
    /// ``hash``, so a Bazel cache holds it as any other action, and never equal to it, so no
    /// lookup for a green run can find a red one.
    package var redSlot: String { SHA256.hex("ribcage-test-cache/red-run\n\(hash)") }

    /// The version of the key's recipe; a change to what goes in, or to how an entry is stored,
    /// changes every key (4: the key's parts in a blob of their own, ``StoredEntry``; 5: the
    /// result's date in seconds since 1970, not an ISO 8601 string).
    package static let recipe = "ribcage-test-cache/5"

    /// The key over `parts` for `testTarget`.
    package init(testTarget: String, parts: [Part]) {
        self.testTarget = testTarget
        self.parts = parts.sorted { ($0.kind, $0.name) < ($1.kind, $1.name) }
        // Each field is length-prefixed, so no path or value can be read as two.
        var hasher = SHA256()
        hasher.update("\(Self.recipe)\n")
        for part in self.parts {
            let line = "\(part.kind.rawValue) \(part.name.utf8.count):\(part.name) \(part.digest)\n"
            hasher.update(line)
        }
        hash = hasher.finalize()
    }

    /// A key whose hash was computed elsewhere (``TestCacheInputs`` hashes a tree of targets);
    /// `parts` may be empty when only the hash is needed.
    package init(testTarget: String, parts: [Part], hash: String) {
        self.testTarget = testTarget
        self.parts = parts.sorted { ($0.kind, $0.name) < ($1.kind, $1.name) }
        self.hash = hash
    }

    /// What changed from `earlier` to this key: parts added, removed or with another digest.
    package func changes(since earlier: TestCacheKey) -> [Change] {
        let before = Dictionary(earlier.parts.map { ("\($0.kind.rawValue) \($0.name)", $0) }) { first, _ in
            first
        }
        let now = Dictionary(parts.map { ("\($0.kind.rawValue) \($0.name)", $0) }) { first, _ in first }
        var changes: [Change] = []
        for part in parts {
            guard let old = before["\(part.kind.rawValue) \(part.name)"] else {
                changes.append(Change(part: part, what: .added))
                continue
            }
            if old.digest != part.digest { changes.append(Change(part: part, what: .changed(from: old))) }
        }
        for part in earlier.parts where now["\(part.kind.rawValue) \(part.name)"] == nil {
            changes.append(Change(part: part, what: .removed))
        }
        return changes.sorted { ($0.part.kind, $0.part.name) < ($1.part.kind, $1.part.name) }
    }

    /// A difference between two keys.
    package struct Change: Sendable, Equatable {
        /// The part as it is now (or was, when removed).
        package var part: Part
        /// How it differs.
        package var what: What

        /// How a part differs.
        package enum What: Sendable, Equatable {
            case added, removed
            case changed(from: Part)
        }
    }
}
