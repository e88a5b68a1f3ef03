import BlockingWork
import Foundation

/// A folder of its own under the temporary directory for the files a benchmark writes, removed
/// when the benchmark is done with it.
///
/// Removing it walks every file written there (for `bench storage`, tens of thousands), so the
/// removal runs on a thread of its own (``DedicatedThread``), as all blocking file work in the
/// benchmarks does: the cooperative pool has a thread per core, and a benchmark that holds one
/// of them measures its async peers on the other.
enum ScratchFolder {
    /// Runs `body` with a folder named `prefix` and a UUID (not created yet), then removes the
    /// folder, whether `body` returned or threw. A folder that cannot be removed is named on
    /// standard error; what `body` returned or threw is passed on either way.
    static func with<Value>(prefix: String, _ body: (URL) async throws -> Value) async throws -> Value {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)", isDirectory: true)
        let outcome: Result<Value, any Error>
        do {
            outcome = .success(try await body(folder))
        } catch {
            outcome = .failure(error)
        }
        do {
            try await DedicatedThread.run(named: "bench-scratch-removal") {
                guard FileManager.default.fileExists(atPath: folder.path) else { return }
                try FileManager.default.removeItem(at: folder)
            }
        } catch {
            FileHandle.standardError.write(
                Data("warning: could not remove \(folder.path): \(error)\n".utf8))
        }
        return try outcome.get()
    }
}
