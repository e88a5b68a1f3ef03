import Foundation
import HeadlessUI
import TerminalCore
import Testing

/// Compares a rendered canvas with a checked-in text file in the `Snapshots/` folder next to the
/// calling test file (Swift Testing).
///
/// ```swift
/// assertSnapshot(window.render(), named: "todo-list")   // Snapshots/todo-list.txt
/// ```
///
/// To record or re-record: run the tests with `RIBCAGE_RECORD_SNAPSHOTS=1`, e.g.
/// `RIBCAGE_RECORD_SNAPSHOTS=1 swift test --filter HeadlessUITests`, review the diff of the
/// `Snapshots/` folder, and commit it. A recording run fails on purpose, so that it cannot pass
/// by accident; a missing file is recorded and fails too.
public func assertSnapshot(
    _ canvas: Canvas, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertSnapshot(canvas.text() + "\n", named: name, filePath: filePath, sourceLocation: sourceLocation)
}

/// Compares `text`, such as the frames a `--script` run printed, with a checked-in file in the
/// `Snapshots/` folder next to the calling test file; recorded as the canvas variant is.
public func assertSnapshot(
    _ actual: String, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = URL(filePath: filePath).deletingLastPathComponent().appending(path: "Snapshots")
    let file = directory.appending(path: "\(name).txt")
    let recording = ProcessInfo.processInfo.environment["RIBCAGE_RECORD_SNAPSHOTS"] == "1"
    guard !recording, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record(
                "Recorded snapshot \(name) at \(file.path); review and commit it",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record("Could not record snapshot \(name): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    if expected != actual {
        Issue.record(
            """
            Snapshot \(name) differs (re-record with RIBCAGE_RECORD_SNAPSHOTS=1).
            --- expected
            \(expected)--- actual
            \(actual)
            """, sourceLocation: sourceLocation)
    }
}
