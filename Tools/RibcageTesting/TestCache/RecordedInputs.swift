import ContentDigest
import Foundation
import RibcagePackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file, folder or program a suite's run was seen to read, with its digest then.
///
/// The key declares what a test target builds from; a test can read more at run time (a
/// fixtures folder no target owns, another target's files through `#filePath`, a program it
/// starts from the build folder). A cache entry keeps what the run really read, and a later
/// lookup is a hit only while each of these still has its digest.
package struct RecordedInput: Sendable, Hashable, Codable, Comparable {
    package enum Kind: String, Sendable, Codable {
        /// A file's bytes (through any links).
        case file
        /// A folder's names, sorted, but for hidden ones (`.build`, `.git`: tools' state, which
        /// a fresh clone lacks): a file added to a folder a test lists changes it.
        case listing
        /// A program that was started, by its bytes.
        case executable
        /// A program of the package started from the build folder, by the sources it is built
        /// from (its target's, and every target's it depends on): the binary itself exists only
        /// after a build, and a fresh clone must still find the entry.
        case product
    }

    package var kind: Kind
    /// Relative to the package's root when inside it (so the entry holds on another clone),
    /// else absolute.
    package var path: String
    /// SHA-256 of the bytes or names, or ``absent`` when nothing was there.
    package var digest: String

    /// The digest of a path where nothing is: a test that looked for a file and did not find it
    /// behaves otherwise once it exists.
    package static let absent = "absent"

    package init(kind: Kind, path: String, digest: String) {
        self.kind = kind
        self.path = path
        self.digest = digest
    }

    package static func < (lhs: RecordedInput, rhs: RecordedInput) -> Bool {
        (lhs.path, lhs.kind.rawValue) < (rhs.path, rhs.kind.rawValue)
    }

    /// The absolute path of this input for the package at `root`.
    package func location(root: URL) -> String {
        path.hasPrefix("/") ? path : root.appendingPathComponent(path).path
    }

    /// The digest the input has now, in the package `inputs` reads.
    package func currentDigest(in inputs: TestCacheInputs) -> String {
        guard kind == .product else { return Self.digest(of: kind, at: location(root: inputs.root)) }
        return (try? inputs.sourcesDigest(ofTarget: path)) ?? Self.absent
    }

    /// The digest of what is at `path` now, read as `kind` (not ``Kind/product``).
    static func digest(of kind: Kind, at path: String) -> String {
        switch kind {
        case .file, .executable, .product:
            // A folder where a file was (or a file that cannot be read) is a change too.
            return (try? FileTreeDigests.digest(ofFile: path)) ?? absent
        case .listing:
            guard let names = visibleNames(inFolder: path) else { return absent }
            return listingDigest(of: names)
        }
    }

    /// The digest of a folder's visible names (``Kind/listing``), in whatever order they came.
    static func listingDigest(of names: [String]) -> String {
        SHA256.hex(names.sorted().joined(separator: "\n"))
    }

    /// The names in the folder at `path` but for hidden ones, in the order `readdir` gives them;
    /// nil when it cannot be listed (or a read fails midway: a listing cut short is no listing).
    /// `readdir` itself, as `FileManager`'s listing cost a look-up of 500 suites 20 ms.
    static func visibleNames(inFolder path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else { return errno == 0 ? names : nil }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(
                    to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)
                ) {
                    String(cString: $0)
                }
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
    }
}

/// Chooses, from a traced run, the accesses that are inputs of the suite, and digests them.
///
/// Kept: what the test processes (the test bundle and what it starts) read inside the package
/// and inside its local (`path:`) dependencies, and every program they started. Left out, as the key covers them or as they
/// belong to no result: SwiftPM's own process and the toolchain's programs (they read the
/// manifest and the build records), the build folder but for the programs started from it and
/// the resources bundles read, `.git` (what `git ls-files` lists is read next, file by file),
/// the test bundle itself (it changes with every target's sources, and each suite's own sources
/// are in its key), the toolchain (its `swift --version` is in the key), the temporary folder
/// outside the package (what a test writes there, it made), and `/proc`, `/sys`, `/dev`.
package struct RecordedInputSelection: Sendable {
    /// The package's root, links resolved as the kernel reports paths.
    package var root: String
    /// The roots of the package's local dependencies, links resolved.
    package var localDependencies: [String]
    /// Folders whose contents never count: the toolchain, the temporary folder.
    package var ignoredFolders: [String]
    /// The toolchain's folder: what its programs read (SwiftPM's helpers, the compiler asked
    /// for its target) is SwiftPM's business, and the toolchain is in the key.
    package var toolchain: String?
    /// The target each of the package's executables is built from, by the executable's name.
    package var productTargets: [String: String]

    /// The selection for the package at `root`.
    ///
    /// - Parameters:
    ///   - localDependencies: The folders of its `.package(path:)` dependencies.
    ///   - toolchain: The folder the toolchain is installed in (`/opt/swift/usr`), if known.
    ///   - package: The package, for the targets of the programs it builds.
    package init(root: URL, localDependencies: [URL], toolchain: URL?, package: DescribedPackage? = nil) {
        var productTargets: [String: String] = [:]
        for target in package?.targets ?? [] where target.type == "executable" {
            productTargets[target.name] = target.name
        }
        for product in package?.products ?? [] where product.type == "executable" {
            if let target = product.targets.first { productTargets[product.name] = target }
        }
        self.productTargets = productTargets
        self.root = Self.realPath(root.path)
        self.localDependencies = localDependencies.map { Self.realPath($0.path) }
        var ignored = ["/proc", "/sys", "/dev"]
        for temporary in Set([FileManager.default.temporaryDirectory.path, "/tmp", "/var/tmp"]) {
            ignored.append(Self.realPath(temporary))
        }
        self.toolchain = toolchain.map { Self.realPath($0.path) }
        if let toolchain = self.toolchain { ignored.append(toolchain) }
        ignoredFolders = ignored
    }

    /// The inputs `trace` shows, each once, digested now; the package's own programs by the
    /// sources `inputs` finds for them.
    package func inputs(of trace: InputTrace, in inputs: TestCacheInputs) -> [RecordedInput] {
        var chosen: [String: RecordedInput.Kind] = [:]
        // A suite opens the same files again and again (every process its libraries): each
        // path and kind is judged once.
        var judged: [KindAndPath: RecordedInput.Kind?] = [:]
        for access in trace.accesses where access.pid != trace.rootPID && (access.byTest || !trace.ranTests) {
            if let toolchain, let program = access.program, Self.isInside(program, toolchain) { continue }
            // `--sandbox`'s bubblewrap opens the paths it binds: the sandbox's reads, not the suite's.
            if access.program?.hasSuffix("/bwrap") == true { continue }
            var paths = [access.path]
            if let resolved = access.resolved, resolved != access.path { paths.append(resolved) }
            for path in paths {
                let question = KindAndPath(kind: access.kind, path: path)
                let answer = judged[question] ?? kind(of: access, at: path)
                judged[question] = answer
                guard let kind = answer else { continue }
                // A program that is also read stays a program; a file read stays a file.
                if chosen[path] == nil || kind != .file { chosen[path] = kind }
            }
        }
        var recorded: Set<RecordedInput> = []
        for (path, kind) in chosen {
            if kind == .product {
                let target = productTargets[(path as NSString).lastPathComponent] ?? ""
                let digest = (try? inputs.sourcesDigest(ofTarget: target)) ?? RecordedInput.absent
                recorded.insert(RecordedInput(kind: .product, path: target, digest: digest))
            } else {
                recorded.insert(
                    RecordedInput(
                        kind: kind, path: relative(path), digest: RecordedInput.digest(of: kind, at: path)))
            }
        }
        return recorded.sorted()
    }

    private struct KindAndPath: Hashable {
        var kind: InputTrace.Access.Kind
        var path: String
    }

    /// How `access` counts at `path`, or nil when it does not.
    private func kind(of access: InputTrace.Access, at path: String) -> RecordedInput.Kind? {
        let inPackage = Self.isInside(path, root)
        let inLocalDependency = localDependencies.contains { Self.isInside(path, $0) }
        // A package may itself live in the temporary folder.
        if !inPackage && !inLocalDependency && ignoredFolders.contains(where: { Self.isInside(path, $0) }) {
            return nil
        }
        let components = path.split(separator: "/")
        if components.contains(".git") { return nil }
        let build = components.firstIndex { $0 == ".build" || $0.hasPrefix(".build-") }
        if access.kind == .executed {
            if path.hasSuffix(".xctest") { return nil }
            if inPackage, build != nil, productTargets[String(components.last ?? "")] != nil {
                return .product
            }
            return .executable
        }
        guard inPackage || inLocalDependency else { return nil }
        if let build {
            // Only resources bundles: the rest of the build folder is SwiftPM's bookkeeping.
            guard components[build...].contains(where: { $0.hasSuffix(".resources") }) else { return nil }
        }
        return access.kind == .listing ? .listing : .file
    }

    /// `path` relative to the root when inside it, else as it is.
    private func relative(_ path: String) -> String {
        if path == root { return "." }
        guard Self.isInside(path, root) else { return path }
        return String(path.dropFirst(root.count + 1))
    }

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `path` with every link resolved, as the kernel prints it; `path` itself when it does not
    /// exist.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
