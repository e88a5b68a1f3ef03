import BlockingWork
import Foundation
import RibcagePackage

/// The suites of a package that failed under `strace` and passed without it, remembered in the
/// local cache folder (`untraceable/<package>/<test target>`).
///
/// Such a suite (one that traces processes itself, uses job control, or races a deadline that
/// `ptrace`'s stops make it miss) would otherwise run twice on every cached run, the second time
/// after the traced ones had finished. Remembered, it runs once, untraced, beside them. It is
/// never stored, as no trace says what it read; deleting its file makes the next run try the
/// trace again. Kept per test target rather than per key: what makes a suite fail under the
/// trace is what its tests do, which an edit to its sources rarely changes, and a per-key memory
/// would pay the double run after every such edit.
package struct UntraceableSuites: Sendable {
    /// `untraceable/<package>` inside the local cache folder.
    package var folder: URL

    /// The memory of the package named `package` in the local cache `folder`.
    package init(cacheFolder: URL, package: String) {
        folder = cacheFolder.appendingPathComponent("untraceable", isDirectory: true)
            .appendingPathComponent(package, isDirectory: true)
    }

    /// The file that marks `testTarget`.
    package func file(of testTarget: String) -> URL {
        folder.appendingPathComponent(testTarget)
    }

    /// The test targets remembered.
    package func known() async throws -> Set<String> {
        let folder = folder
        return try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
            return Set(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            )
        }
    }

    /// Remembers each of `testTargets`, with the date it was seen.
    package func remember(_ testTargets: [String], date: Date = Date()) async throws {
        guard !testTargets.isEmpty else { return }
        let files = testTargets.map(file(of:))
        let folder = folder
        try await DedicatedThread.run(named: "ribcage-test-cache-store") {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let text =
                "failed under strace and passed without it, \(ISO8601DateFormatter().string(from: date))\n"
            for file in files { try Data(text.utf8).write(to: file, options: .atomic) }
        }
    }

    /// The test targets Project.swift.md lists under "Untraced test targets": known to fail
    /// under `strace`, so even a first run, on any machine, starts them untraced, and they never
    /// run twice to find out.
    package static func declared(packageAt root: URL) throws -> Set<String> {
        let file = root.appendingPathComponent("Project.swift.md")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return Set(
            ProjectManifest(markdown: try String(contentsOf: file, encoding: .utf8)).untracedTestTargets)
    }

    /// The section of Project.swift.md that declares them.
    package static let declaredTable = "Untraced test targets"

    /// What a run says of a suite it starts without the trace because Project.swift.md says so.
    package static func declaredNote(_ testTarget: String) -> String {
        "\(testTarget): runs without strace, as Project.swift.md's \(declaredTable) table lists it; "
            + "it is not cached"
    }

    /// What a run says of a suite it starts without the trace.
    package func note(_ testTarget: String) -> String {
        "\(testTarget): runs without strace, as an earlier run saw it fail under strace only; "
            + "it is not cached (delete \(file(of: testTarget).path) to try the trace again)"
    }
}
