import Foundation
import LocalProvider
import Subprocess
import Synchronization
import SystemPackage
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

    /// The names of the set-aside copies of `name`.
    func setAsideCopies(of name: String) -> [String] {
        fileNames.filter { $0.hasPrefix("\(name).damaged-") }
    }

    deinit {
        // Tests may have taken rights away; give them back so that the folder can go.
        chmodTree(url)
        try? FileManager.default.removeItem(at: url)
    }
}

private func chmodTree(_ url: URL) {
    chmod(url.path, 0o700)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
        let child = url.appendingPathComponent(name)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            chmodTree(child)
        } else {
            chmod(child.path, 0o600)
        }
    }
}

struct Todo: Codable, Sendable, Equatable {
    var id: Int
    var title: String
    var isDone = false
    var createdAt = Date(timeIntervalSince1970: 1_700_000_000)
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    /// The clock as the stores take it.
    var function: @Sendable () -> Date { { self.now } }
}

/// Permission bits of a file, e.g. 0o600.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require(attributes[.posixPermissions] as? Int) & 0o777
}

/// The `storage-probe` executable that `swift build` put next to this test bundle.
func storageProbe() throws -> FilePath {
    let testBinary = URL(
        fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let probe = testBinary.deletingLastPathComponent().appendingPathComponent("storage-probe")
    guard FileManager.default.isExecutableFile(atPath: probe.path) else {
        throw ProbeMissing(path: probe.path)
    }
    return FilePath(probe.path)
}

struct ProbeMissing: Error, CustomStringConvertible {
    var path: String
    var description: String { "storage-probe is not built at \(path); run `swift build` first" }
}

private func environment(_ variables: [String: String]) -> Subprocess.Environment {
    .inherit.updating(
        Dictionary(
            uniqueKeysWithValues: variables.map {
                (Subprocess.Environment.Key(stringLiteral: $0.key), $0.value)
            }))
}

/// Runs the probe to completion and returns its standard output, trimmed.
///
/// Every probe a test starts gets a pipe on its standard input that only the test holds: if the
/// test process dies, the probe sees the pipe close and ends too (see the probe's
/// ParentWatch.swift). On the test's own exit paths — a thrown error, a cancelled task —
/// swift-subprocess kills the child before `run` returns.
@discardableResult
func runProbe(_ arguments: [String], environment variables: [String: String] = [:]) async throws -> String {
    let result = try await Subprocess.run(
        .path(try storageProbe()), arguments: Arguments(arguments), environment: environment(variables),
        input: .inputWriter, output: .sequence, error: .string(limit: 1 << 16)
    ) { execution in
        // Standard output ends when the probe does; until then its standard input stays open.
        var lines: [String] = []
        for try await line in execution.standardOutput.strings() { lines.append(line) }
        return lines.joined(separator: "\n")
    }
    #expect(
        result.terminationStatus.isSuccess,
        "storage-probe \(arguments.joined(separator: " ")) failed: \(result.standardError)")
    return result.closureResult.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Starts the probe and kills it with SIGKILL `delay` after it has printed `acknowledgements`
/// lines starting with `ack`. Returns every line it printed before it died: the
/// acknowledgements a test may count on.
func killProbe(
    _ arguments: [String], afterAcknowledgements acknowledgements: Int, delay: Duration = .zero,
    environment variables: [String: String] = [:]
) async throws -> [String] {
    let result = try await Subprocess.run(
        .path(try storageProbe()), arguments: Arguments(arguments), environment: environment(variables),
        input: .inputWriter, output: .sequence, error: .string(limit: 1 << 16)
    ) { execution in
        var lines: [String] = []
        var seen = 0
        var killed = false
        for try await line in execution.standardOutput.strings() {
            lines.append(line)
            if line.hasPrefix("ack ") { seen += 1 }
            if !killed, seen >= acknowledgements {
                if delay > .zero { try await Task.sleep(for: delay) }
                try execution.send(signal: .kill)
                killed = true
            }
        }
        return lines
    }
    #expect(
        result.terminationStatus == .signaled(SIGKILL),
        "storage-probe \(arguments.joined(separator: " ")) ended \(result.terminationStatus): \(result.standardError)"
    )
    return result.closureResult
}

/// Starts the probe, waits until it prints a line, runs `body`, then kills the probe.
func whileProbeRuns<T: Sendable>(
    _ arguments: [String], untilItPrints expected: String? = nil, _ body: @Sendable () async throws -> T
) async throws -> T {
    let result = try await Subprocess.run(
        .path(try storageProbe()), arguments: Arguments(arguments), environment: .inherit,
        input: .inputWriter, output: .sequence, error: .discarded
    ) { execution in
        if let expected {
            for try await line in execution.standardOutput.strings() where line == expected { break }
        }
        let value = try await body()
        try execution.send(signal: .kill)
        return value
    }
    return result.closureResult
}

/// The stores that keep values as property lists, by where they keep the value "victim".
enum PropertyListStoreKind: String, CaseIterable, Sendable {
    /// ``PlistFileStore``, one file per key: `victim.plist`.
    case plist
    /// ``PlistFileStore`` with every key in `table.plist`.
    case table
    /// ``UserDefaultsStore``: the suite's file, `Suite.plist`.
    case defaults

    static let victim = StorageKey<String>("victim")

    /// A store of this kind in `folder`, and the file that holds ``victim``.
    func store(in folder: URL) throws -> (store: PropertyListStore, file: URL) {
        switch self {
        case .plist:
            let store = try PlistFileStore(root: folder)
            return (store, store.fileURL(for: Self.victim))
        case .table:
            let store = try PlistFileStore(root: folder, layout: .singleFile(name: "table"))
            return (store, store.fileURL(for: Self.victim))
        case .defaults:
            let store = try UserDefaultsStore(
                suiteName: "Suite", environment: ["XDG_CONFIG_HOME": folder.path])
            return (store, store.fileURL)
        }
    }
}

/// What the entry at `url` itself is, not following a symbolic link; `nil` if there is none.
func entryType(at url: URL) -> FileType? {
    try? FilePath(url.path).stat(followTargetSymlink: false).type
}

/// The path the symbolic link at `url` leads to.
func destination(ofLink url: URL) throws -> String {
    try FileManager.default.destinationOfSymbolicLink(atPath: url.path)
}

/// Makes a FIFO at `url`: opening it for reading waits for a writer.
func makeFIFO(at url: URL) throws {
    guard mkfifo(url.path, 0o600) == 0 else { throw Errno(rawValue: errno) }
}
