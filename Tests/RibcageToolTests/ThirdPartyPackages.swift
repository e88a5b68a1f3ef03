import Foundation
import RibcagePackage
import Testing

/// Real third-party packages, checked out from the machine's local git copies under
/// `/opt/swift-packages` at fixed versions, for tests that run the tool on code we did not write.
///
/// Each checkout is made once and kept under the temporary folder, keyed by version, so every
/// test of a run shares it (`Tools/test` gives each run a temporary folder of its own, so no
/// run inherits another's); a checkout is moved into place only when complete, so test
/// processes running at once never see half of one. Tests share it read-only or for what
/// every test may do to it (resolve, fill SwiftPM's and ribcage's caches); a test that edits a
/// package copies it first.
enum ThirdPartyPackage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case argumentParser = "apple/swift-argument-parser@1.8.2"
    case nio = "apple/swift-nio@2.101.2"
    case hummingbird = "hummingbird-project/hummingbird@2.28.1"

    var repository: String { String(rawValue.prefix { $0 != "@" }) }
    var version: String { String(rawValue.drop { $0 != "@" }.dropFirst()) }
    var name: String { String(repository.drop { $0 != "/" }.dropFirst()) }
    var testDescription: String { "\(name) \(version)" }

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The checkout's folder, cloning it first if this machine has none yet.
    func checkout() async throws -> URL {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-third-party", isDirectory: true)
        let destination = cache.appendingPathComponent("\(name)-\(version)", isDirectory: true)
        if FileManager.default.fileExists(atPath: destination.appendingPathComponent("Package.swift").path) {
            return destination
        }
        let origin = "/opt/swift-packages/\(repository).git"
        guard FileManager.default.fileExists(atPath: origin) else {
            throw Unavailable(description: "No local copy of \(repository) at \(origin).")
        }
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let staging = cache.appendingPathComponent(".\(name)-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let clone = try await Shell.run(
            "git",
            ["-c", "advice.detachedHead=false", "clone", "-q", "--branch", version, origin, staging.path])
        guard clone.succeeded else {
            throw Unavailable(description: "git clone \(origin) \(version) failed: \(clone.errorText)")
        }
        do {
            try FileManager.default.moveItem(at: staging, to: destination)
        } catch
            where FileManager.default.fileExists(
                atPath: destination.appendingPathComponent("Package.swift").path)
        {
            // Another test process moved its complete checkout into place first.
        }
        return destination
    }

    /// The checkout with its dependencies resolved into its `.build` (`Package.resolved`, the
    /// checkouts and `.build/workspace-state.json`), as a test that reads SwiftPM's record needs
    /// it: `swift package describe` does not resolve, so no other command a test runs first can
    /// be counted on to have done it. Resolving again is quick and changes nothing; test
    /// processes resolving at once wait for each other on SwiftPM's lock of `.build`.
    func resolvedCheckout() async throws -> URL {
        let root = try await checkout()
        let resolve = try await Shell.run("swift", ["package", "resolve"], in: root)
        guard resolve.succeeded else {
            throw Unavailable(
                description: "swift package resolve in \(root.path) failed: \(resolve.errorText)")
        }
        return root
    }
}
