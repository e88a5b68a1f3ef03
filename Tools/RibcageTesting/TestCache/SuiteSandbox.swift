import BlockingWork
import Foundation
import RibcagePackage

/// What one suite may see when `ribcage test --sandbox` runs it: of the package, only its
/// declared inputs and what its last cached run was seen to read, read-only; the rest of the
/// system read-only too, but for home and the XDG folders; a fresh, empty temporary folder
/// (`/tmp`, and `TMPDIR` at its own path).
///
/// Made with bubblewrap, as Bazel's linux-sandbox does it: a mount namespace where the package's
/// root is an empty folder into which the visible paths are bound. A test that reads a file the
/// key and the record do not hold finds nothing there (`ENOENT`), and fails where it would have
/// passed unseen, instead of a change to that file being answered `cached: green` later.
///
/// SwiftPM itself must still see the whole package (it checks every target's folder before it
/// starts a test), so `swift test` runs in a first namespace that only puts a small script in
/// place of the test bundle; the script starts the real bundle in the second, narrow one. Every
/// test process, and whatever it starts, is inside it.
package struct SuiteSandbox: Sendable {
    package var testTarget: String
    /// The package's root, links resolved.
    package var root: String
    /// The test bundle SwiftPM starts (`.build/debug/<Package>PackageTests.xctest`); it exists
    /// once the tests are built.
    package var bundle: URL
    /// The paths bound read-only into the empty root (and, outside it, into the fresh
    /// temporary folder where a local dependency may live), parents before children.
    package var visible: [String]
    /// What could not be made out while choosing them (a path whose kind could not be read):
    /// a test that then fails sandboxed has its reason here, for the caller to show.
    package private(set) var warnings: [String] = []

    /// The sandbox of `testTarget`: the manifests and `Package.resolved`, the folders of the
    /// target and of every target it depends on, with the folders their links lead to, the local
    /// dependencies, the build folder, and the files, folders and programs of `recorded`
    /// (the last entry's reads) that exist.
    package init(testTarget: String, inputs: TestCacheInputs, recorded: [RecordedInput]) throws {
        self.testTarget = testTarget
        let root = RecordedInputSelection.realPath(inputs.root.path)
        self.root = root
        bundle = inputs.root.appendingPathComponent(".build/debug/\(inputs.package.name)PackageTests.xctest")
        var paths: Set<String> = []
        let manifests = try FileManager.default.contentsOfDirectory(atPath: root).filter {
            $0 == "Package.swift" || $0 == "Package.resolved"
                || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift"))
        }
        for name in manifests { paths.insert(root + "/" + name) }
        for path in try inputs.closureFolders(of: testTarget) {
            let folder = RecordedInputSelection.realPath(inputs.root.appendingPathComponent(path).path)
            paths.insert(folder)
            let linked = Self.linkedFolders(under: folder)
            paths.formUnion(linked.folders)
            warnings += linked.warnings
        }
        for dependency in inputs.localDependencies {
            paths.insert(RecordedInputSelection.realPath(dependency.path))
        }
        for input in recorded where input.kind != .product && input.digest != RecordedInput.absent {
            let path = input.location(root: inputs.root)
            if FileManager.default.fileExists(atPath: path) {
                paths.insert(RecordedInputSelection.realPath(path))
            }
        }
        paths.insert(root + "/.build")
        visible = paths.sorted()
    }

    /// The real folders that links under `folder` lead to: SwiftPM compiles what they hold,
    /// so the key counts them, and a test may read them.
    static func linkedFolders(under folder: String) -> (folders: [String], warnings: [String]) {
        guard
            let walk = FileManager.default.enumerator(
                at: URL(fileURLWithPath: folder), includingPropertiesForKeys: [.isSymbolicLinkKey])
        else { return ([], []) }
        var found: [String] = []
        var warnings: [String] = []
        for case let url as URL in walk {
            do {
                guard try url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink == true else {
                    continue
                }
            } catch {
                // Left out, the folder it may lead to is hidden, and a test that reads it fails
                // sandboxed: said here so that failure has a reason.
                warnings.append("warning: --sandbox: could not tell whether \(url.path) is a link: \(error)")
                continue
            }
            found.append(RecordedInputSelection.realPath(url.path))
        }
        return (found, warnings)
    }

    /// Why `bwrap` cannot sandbox a suite here (not installed, or not allowed to make
    /// namespaces, with what it said), or nil when it can.
    ///
    /// - Throws: `CancellationError` only.
    package static func unavailability() async throws -> String? {
        guard Shell.isOnPath("bwrap") else { return "bwrap is not on the PATH" }
        do {
            let probe = try await Shell.run(
                "bwrap", ["--ro-bind", "/", "/", "--tmpfs", "/tmp", "--", "true"])
            guard probe.succeeded else {
                let said = probe.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
                return "bwrap \(probe.terminationDescription)" + (said.isEmpty ? "" : ": \(said)")
            }
            return nil
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return "bwrap could not be started: \(error)"
        }
    }

    /// The command line to put before `swift test`: the first namespace, with the script that
    /// starts the bundle sandboxed in place of the bundle. Writes that script into
    /// `reportsDirectory`, which stays writable inside for the reports the bundle writes.
    ///
    /// - Throws: ``RibcageError/buildFailed(details:)`` when the bundle is not built; the file
    ///   system's error when the script cannot be written.
    package func command(reportsDirectory: URL) throws -> [String] {
        let bundle = RecordedInputSelection.realPath(self.bundle.path)
        guard FileManager.default.isExecutableFile(atPath: bundle) else {
            throw RibcageError.buildFailed(details: "No test bundle at \(self.bundle.path) to run sandboxed.")
        }
        let folder = reportsDirectory.appendingPathComponent("\(testTarget)-sandbox", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let reports = RecordedInputSelection.realPath(reportsDirectory.path)
        // The real bundle, seen at a second path in the first namespace, for the second to bind.
        let original = folder.appendingPathComponent("bundle").path
        try Data().write(to: URL(fileURLWithPath: original))
        var inner = [
            "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
        ]
        let temporary = RecordedInputSelection.realPath(FileManager.default.temporaryDirectory.path)
        if temporary != "/tmp" && temporary != "/" { inner += ["--tmpfs", temporary] }
        // Home and the XDG folders stay as they are, writable: tools the tests start keep their
        // state there, and a new machine's (Tools/test's) live in the temporary folder.
        let environment = ProcessInfo.processInfo.environment
        for name in [
            "HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
        ] {
            guard let value = environment[name], value.hasPrefix("/"), value != "/" else { continue }
            let path = RecordedInputSelection.realPath(value)
            guard FileManager.default.fileExists(atPath: path), !RecordedInputSelection.isInside(path, root)
            else {
                continue
            }
            inner += ["--bind", path, path]
        }
        inner += ["--tmpfs", root]
        for path in visible { inner += ["--ro-bind", path, path] }
        inner += ["--bind", reports, reports, "--ro-bind", original, bundle]
        inner += ["--die-with-parent", "--", bundle]
        let script = folder.appendingPathComponent("run-sandboxed")
        let text =
            "#!/bin/sh\n# Starts \(testTarget)'s tests sandboxed (ribcage test --sandbox).\nexec bwrap "
            + inner.map(Self.quoted).joined(separator: " ") + " \"$@\"\n"
        try Data(text.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return [
            "bwrap", "--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--ro-bind", bundle, original,
            "--ro-bind", script.path, bundle, "--",
        ]
    }

    private static func quoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Whether `path` is one of the visible paths or inside one.
    func isVisible(_ path: String) -> Bool {
        visible.contains { RecordedInputSelection.isInside(path, $0) }
    }

    /// The package's files, relative to its root, that the run looked for and could not see:
    /// opens that failed in a trace, and paths under the root named in a log, that exist
    /// outside the sandbox and are not visible inside it.
    package func unseenFiles(traces: [InputTrace], logs: [String]) -> [String] {
        var candidates: [String] = []
        for trace in traces {
            for access in trace.accesses
            where access.resolved == nil && access.kind != .executed && access.byTest
                && access.program?.hasSuffix("/bwrap") != true
            {
                candidates.append(access.path)
            }
        }
        // A path in a log runs from the root to the first space, quote or bracket.
        let prefix = root + "/"
        let ends: Set<Character> = [
            "\"", "'", "“", "”", ",", ";", ":", "(", ")", "[", "]", "{", "}", "<", ">",
        ]
        for log in logs {
            var rest = log[...]
            while let start = rest.range(of: prefix) {
                let tail = rest[start.upperBound...]
                let end = tail.firstIndex { $0.isWhitespace || ends.contains($0) } ?? tail.endIndex
                if end > tail.startIndex {
                    candidates.append((String(rest[start.lowerBound..<end]) as NSString).standardizingPath)
                }
                rest = rest[end...]
            }
        }
        var unseen: Set<String> = []
        for path in candidates where RecordedInputSelection.isInside(path, root) && path != root {
            guard !isVisible(path), FileManager.default.fileExists(atPath: path) else { continue }
            unseen.insert(String(path.dropFirst(root.count + 1)))
        }
        return unseen.sorted()
    }

    /// What a failed sandboxed run says: that it was sandboxed, and what it could not see. A
    /// trace or log that cannot be read only leaves the files it would name unnamed (the failure
    /// itself is reported with the suite's results either way); the note says which it was.
    package func failureNote(traces: [URL], logs: [URL]) async -> String {
        let sandbox = self
        let (unseen, unreadable) = await DedicatedThread.run(named: "ribcage-test-reports") {
            var unreadable: [String] = []
            var readTraces: [InputTrace] = []
            for trace in traces {
                do {
                    readTraces.append(try InputTrace(contentsOf: trace))
                } catch {
                    unreadable.append("\(trace.path) (\(error))")
                }
            }
            var readLogs: [String] = []
            for log in logs {
                do {
                    readLogs.append(try String(contentsOf: log, encoding: .utf8))
                } catch {
                    unreadable.append("\(log.path) (\(error))")
                }
            }
            return (sandbox.unseenFiles(traces: readTraces, logs: readLogs), unreadable)
        }
        let head =
            "\(testTarget) failed sandboxed (--sandbox: of the package, only its declared inputs and "
            + "the files its last cached run read were visible)"
        let unread = unreadable.isEmpty ? "" : " (could not read \(unreadable.joined(separator: ", ")))"
        guard !unseen.isEmpty else {
            return head + "; neither its trace nor its log names a file of the package it could not see"
                + unread
        }
        let named =
            unseen.prefix(5).joined(separator: ", ")
            + (unseen.count > 5 ? " and \(unseen.count - 5) more" : "")
        return head + ". It could not see \(named) (not found inside the sandbox): move such a file into "
            + "the folder of a target it depends on, or run it once with --cache without --sandbox so its "
            + "read is recorded" + unread
    }
}
