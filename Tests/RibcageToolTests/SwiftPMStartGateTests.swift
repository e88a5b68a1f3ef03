import Foundation
import RibcagePackage
import RibcageTesting
import Testing

/// Suites run at once take turns through SwiftPM's start-up only: the next `swift test` starts
/// when the last one has started its test bundle, and the bundles then run side by side.
@Suite("SwiftPM start gate", .timeLimit(.minutes(10)))
struct SwiftPMStartGateTests {
    /// A stand-in for `swift test`: it notes its start, forks a process started as
    /// `…/GatePackageTests.xctest` (its "bundle") that runs `bundle`, and notes its end.
    static func swiftTest(_ name: String, log: URL, bundle: String) -> [String] {
        let note = { (what: String) in "echo '\(name) \(what)' >> '\(log.path)'" }
        return [
            "-c",
            [
                note("started"), "sleep 0.2", note("starts its bundle"),
                "bash -c 'exec -a /tmp/GatePackageTests.xctest sh -c \"\(bundle)\"'", note("ended"),
            ].joined(separator: "; "),
        ]
    }

    @Test("the second starts once the first has started its bundle, and both bundles then run at once")
    func turnsAtStartOnly() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("log")
        let secondStarted = folder.url.appendingPathComponent("second-started")
        let gate = SwiftPMStartGate()
        // The first bundle runs until the second has started: had the gate held the second back
        // until the first ended, this would never end (and the time limit fails the test).
        let first = Self.swiftTest(
            "first", log: log, bundle: "while [ ! -e '\(secondStarted.path)' ]; do sleep 0.05; done")
        let second = Self.swiftTest("second", log: log, bundle: "touch '\(secondStarted.path)'")
        try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for (index, arguments) in [first, second].enumerated() {
                group.addTask {
                    if index == 1 {
                        // The first in line is the first script, whichever task runs first.
                        while !FileManager.default.fileExists(atPath: log.path) {
                            try await Task.sleep(for: .milliseconds(10))
                        }
                    }
                    return try await gate.admit(startingBundleEndingWith: "PackageTests.xctest") { started in
                        try await Shell.run("sh", arguments, whileRunning: started)
                    }
                }
            }
            for try await result in group { #expect(result.succeeded, "\(result.errorText)") }
        }
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "first started", "first starts its bundle", "second started", "second starts its bundle",
            ])
        // Both bundles end once the second has started, in either order.
        #expect(Set(lines.dropFirst(4)) == ["first ended", "second ended"] && lines.count == 6, "\(lines)")
    }

    @Test("a process that ends without a bundle, or never starts, opens the gate")
    func opensWithoutBundle() async throws {
        let gate = SwiftPMStartGate()
        let ended = try await gate.admit(startingBundleEndingWith: "PackageTests.xctest") { started in
            try await Shell.run("sh", ["-c", "exit 3"], whileRunning: started)
        }
        #expect(ended.status == 3)
        await #expect(throws: RibcageError.self) {
            try await gate.admit(startingBundleEndingWith: "PackageTests.xctest") { started in
                try await Shell.run("ribcage-no-such-command", [], whileRunning: started)
            }
        }
        let next = try await gate.admit(startingBundleEndingWith: "PackageTests.xctest") { started in
            try await Shell.run("true", [], whileRunning: started)
        }
        #expect(next.succeeded)
    }

    @Test("the process tree finds a program started under a process, and says when that process is gone")
    func processTree() async throws {
        let folder = try TemporaryFolder()
        let release = folder.url.appendingPathComponent("release")
        let child = Task {
            try await Shell.run(
                "sh",
                [
                    "-c",
                    "bash -c 'exec -a /x/TreePackageTests.xctest sh -c \"while [ ! -e \(release.path) ]; do sleep 0.05; done\"'; true",
                ]
            ) { pid in
                let seen = await SwiftPMStartGate.waitForDescendant(
                    of: pid, runningProgramEndingWith: "TreePackageTests.xctest")
                #expect(seen)
                #expect(
                    ProcessTable.current().descendant(of: pid, runningProgramEndingWith: "Other.xctest")
                        == .notYet)
                #expect(FileManager.default.createFile(atPath: release.path, contents: nil))
            }
        }
        let result = try await child.value
        #expect(result.succeeded)
        let exited = try await Shell.run("sh", ["-c", "echo $$"])
        let gone = try #require(pid_t(exited.outputText.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(ProcessTable.current().descendant(of: gone, runningProgramEndingWith: "x") == .rootEnded)
    }
}
