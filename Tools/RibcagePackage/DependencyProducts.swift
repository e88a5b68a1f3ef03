import Foundation

/// The modules inside other packages' products: swift-collections' `Collections` product holds
/// `DequeModule`, `OrderedCollections` and more, so a target that declares `Collections` may
/// import any of them.
///
/// Read from the checkouts SwiftPM already made (`.build/workspace-state.json`), never by
/// resolving: lint stays offline. Each package's manifest is read once per revision and kept in
/// `.build/ribcage/manifests/`.
package enum DependencyProducts {
    /// A dependency SwiftPM has checked out or points at.
    package struct Checkout: Sendable, Equatable {
        /// The package's identity, e.g. `swift-collections`.
        package var identity: String
        package var folder: URL
        /// What identifies this state of it: a revision, or the manifest's modification time.
        package var revision: String
        /// The version it is checked out at, else its branch; `nil` for a local package.
        package var version: String? = nil
        /// Where it comes from: a URL, or a local folder.
        package var location: String? = nil
    }

    /// Every product's modules, keyed `identity/product` (identities are lowercase, as SwiftPM
    /// makes them), for the packages `identities` names
    /// (every checked-out package when `nil`). A package that is not checked out, or whose
    /// manifest cannot be read, is left out: its products count as the module of their name.
    ///
    /// - Throws: What ``manifest(of:root:)`` throws.
    package static func modules(root: URL, identities: Set<String>?) async throws -> [String: [String]] {
        let wanted = checkouts(root: root).filter { identities?.contains($0.identity) ?? true }
        var all: [String: [String]] = [:]
        for (identity, manifest) in try await manifests(of: wanted, root: root) {
            guard let manifest else { continue }
            for product in manifest.products { all["\(identity)/\(product.name)"] = product.targets }
        }
        return all
    }

    /// ``manifest(of:root:)`` of each checkout, by identity (`nil` where it cannot be read).
    ///
    /// A cold cache means one `swift package dump-package`, a compiler run, per checkout: at
    /// most one per core runs at a time, so a tree of fifty packages does not start fifty.
    ///
    /// - Throws: What ``manifest(of:root:)`` throws.
    package static func manifests(of checkouts: [Checkout], root: URL) async throws -> [String: ManifestDump?]
    {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return try await withThrowingTaskGroup(of: (String, ManifestDump?).self) { group in
            var pending = checkouts[...]
            for _ in 0..<width {
                guard let checkout = pending.popFirst() else { break }
                group.addTask { (checkout.identity, try await manifest(of: checkout, root: root)) }
            }
            var manifests: [String: ManifestDump?] = [:]
            for try await (identity, dumped) in group {
                manifests[identity] = dumped
                if let checkout = pending.popFirst() {
                    group.addTask { (checkout.identity, try await manifest(of: checkout, root: root)) }
                }
            }
            return manifests
        }
    }

    /// The revision `Package.resolved` pins each package at, by identity; empty when the file
    /// is missing or unreadable (a package that was never resolved has none).
    package static func pinnedRevisions(root: URL) -> [String: String] {
        let file = root.appendingPathComponent("Package.resolved")
        guard let data = try? Data(contentsOf: file),
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        // Version 2 and 3 list `pins` at the top with an `identity`; version 1 nests them under
        // `object`, named by `package`.
        let pins =
            document["pins"] as? [[String: Any]] ?? (document["object"] as? [String: Any])?["pins"]
            as? [[String: Any]] ?? []
        var revisions: [String: String] = [:]
        for pin in pins {
            guard let identity = (pin["identity"] as? String) ?? (pin["package"] as? String)?.lowercased(),
                let revision = (pin["state"] as? [String: Any])?["revision"] as? String
            else { continue }
            revisions[identity] = revision
        }
        return revisions
    }

    /// The dependencies recorded in `.build/workspace-state.json`, with their folders.
    package static func checkouts(root: URL) -> [Checkout] {
        let stateFile = root.appendingPathComponent(".build/workspace-state.json")
        guard let data = try? Data(contentsOf: stateFile),
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let object = document["object"] as? [String: Any],
            let dependencies = object["dependencies"] as? [[String: Any]]
        else { return [] }
        return dependencies.compactMap { dependency in
            guard let reference = dependency["packageRef"] as? [String: Any],
                let identity = reference["identity"] as? String
            else { return nil }
            let state = dependency["state"] as? [String: Any]
            let checkoutState = state?["checkoutState"] as? [String: Any]
            if let subpath = dependency["subpath"] as? String,
                let revision = checkoutState?["revision"] as? String
            {
                let folder = root.appendingPathComponent(".build/checkouts/\(subpath)")
                return Checkout(
                    identity: identity, folder: folder, revision: revision,
                    version: checkoutState?["version"] as? String ?? checkoutState?["branch"] as? String,
                    location: reference["location"] as? String)
            }
            // A local (`path:`) or edited package: its folder, stamped by its manifest's date.
            guard let location = reference["location"] as? String, location.hasPrefix("/") else { return nil }
            let folder = URL(fileURLWithPath: location)
            let manifest = folder.appendingPathComponent("Package.swift")
            let date =
                (try? FileManager.default.attributesOfItem(atPath: manifest.path))?[.modificationDate]
                as? Date
            return Checkout(
                identity: identity, folder: folder, revision: "mtime-\(date?.timeIntervalSince1970 ?? 0)",
                location: location)
        }
    }

    /// The checkout's manifest as `swift package dump-package` reads it, kept per revision in
    /// `.build/ribcage/manifests/`, so a second run reads no manifest; `nil` when it cannot be
    /// read.
    ///
    /// - Throws: ``RibcageError/outOfFileDescriptors(command:limit:)`` when `swift` could not
    ///   be started for lack of descriptors, and `CancellationError`: neither says anything of
    ///   the manifest, so neither counts as one that cannot be read.
    package static func manifest(of checkout: Checkout, root: URL) async throws -> ManifestDump? {
        let cacheFile = root.appendingPathComponent(
            ".build/ribcage/manifests/\(checkout.identity)-\(checkout.revision).json")
        if let data = try? Data(contentsOf: cacheFile), let cached = try? ManifestDump(json: data) {
            return cached
        }
        let dump: ProcessResult
        do {
            dump = try await Shell.run("swift", ["package", "dump-package"], in: checkout.folder)
        } catch let error as RibcageError {
            guard case .outOfFileDescriptors = error else { return nil }
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return nil
        }
        guard dump.succeeded, let manifest = try? ManifestDump(json: dump.standardOutput) else { return nil }
        // A cache that cannot be written costs the next run a dump-package, nothing else.
        try? FileManager.default.createDirectory(
            at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? dump.standardOutput.drop { $0 != UInt8(ascii: "{") }.write(to: cacheFile, options: .atomic)
        return manifest
    }
}
