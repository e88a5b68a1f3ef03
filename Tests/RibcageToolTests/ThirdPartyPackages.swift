import Foundation
import RibcageTool
import Testing

/// Real third-party packages, checked out from the machine's local git copies under
/// `/opt/swift-packages` at fixed versions, for tests that run the tool on code we did not write.
///
/// Each checkout is made once and kept under the temporary folder, keyed by version, so every
/// test of a run (and later runs) share it; a checkout is moved into place only when complete,
/// so test processes running at once never see half of one.
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
}
