import Foundation
import LocalProvider
import Testing

/// A folder under the system's temporary directory, removed when the value is released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("localprovider-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

struct Todo: Codable, Sendable, Equatable {
    var id: Int
    var title: String
    var isDone = false
    var createdAt = Date(timeIntervalSince1970: 1_700_000_000)
}

/// Permission bits of a file, e.g. 0o600.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require(attributes[.posixPermissions] as? Int) & 0o777
}

/// The `storage-probe` executable that `swift build` put next to this test bundle.
func storageProbe() throws -> URL {
    let testBinary = URL(
        fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let probe = testBinary.deletingLastPathComponent().appendingPathComponent("storage-probe")
    guard FileManager.default.isExecutableFile(atPath: probe.path) else {
        throw ProbeMissing(path: probe.path)
    }
    return probe
}

struct ProbeMissing: Error, CustomStringConvertible {
    var path: String
    var description: String { "storage-probe is not built at \(path); run `swift build` first" }
}

/// Runs the probe to completion and returns its standard output.
@discardableResult
func runProbe(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = try storageProbe()
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "storage-probe \(arguments.joined(separator: " ")) failed")
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
