import Foundation
import RibcagePackage
import RibcageTesting
import Testing

/// Reading `strace`'s log of a test run, and choosing from it what a cache entry records.
@Suite("Input trace")
struct InputTraceTests {
    /// `text` as strace's `-xx` prints it.
    static func hex(_ text: String) -> String {
        text.utf8.map { "\\x" + String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    @Test(
        "opens for reading, folder listings and started programs are read; writes and failed starts are not")
    func parsesCalls() {
        let h = Self.hex
        let log = """
            100 execve("\(h("/usr/bin/swift"))", ["\(h("swift"))"], 0x1 /* 3 vars */) = 0
            101 openat(AT_FDCWD<\(h("/pkg"))>, "\(h("Tests/Fixtures/a.json"))", O_RDONLY|O_CLOEXEC) = 3<\(h("/pkg/Tests/Fixtures/a.json"))>
            101 openat(AT_FDCWD<\(h("/pkg"))>, "\(h("missing.txt"))", O_RDONLY) = -1 ENOENT (No such file or directory)
            101 openat(AT_FDCWD<\(h("/pkg"))>, "\(h("out.log"))", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 4<\(h("/pkg/out.log"))>
            101 openat(5<\(h("/pkg/Tests"))>, "\(h("Snapshots"))", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 6<\(h("/pkg/Tests/Snapshots"))>
            102 execve("\(h("/usr/local/bin/git"))", ["\(h("git"))"], 0x1 /* 3 vars */) = -1 ENOENT (No such file or directory)
            102 execve("\(h("/usr/bin/git"))", ["\(h("git"))"], 0x1 /* 3 vars */) = 0
            """
        let trace = InputTrace(log: log)
        #expect(trace.rootPID == 100)
        #expect(
            trace.accesses == [
                .init(kind: .executed, path: "/usr/bin/swift", resolved: "/usr/bin/swift", pid: 100),
                .init(
                    kind: .read, path: "/pkg/Tests/Fixtures/a.json", resolved: "/pkg/Tests/Fixtures/a.json",
                    pid: 101),
                .init(kind: .read, path: "/pkg/missing.txt", resolved: nil, pid: 101),
                .init(
                    kind: .listing, path: "/pkg/Tests/Snapshots", resolved: "/pkg/Tests/Snapshots", pid: 101),
                .init(kind: .executed, path: "/usr/bin/git", resolved: "/usr/bin/git", pid: 102),
            ])
    }

    @Test("a call cut in two by another thread is put back together; a padded pid is read")
    func unfinishedAndResumed() {
        let h = Self.hex
        let log = """
            200   execve("\(h("/bin/true"))", [], 0x1 /* 0 vars */) = 0
            201 openat(AT_FDCWD<\(h("/pkg"))>, "\(h("../pkg/b.txt"))", O_RDONLY <unfinished ...>
            202 openat(AT_FDCWD<\(h("/"))>, "\(h("/etc/hostname"))", O_RDONLY) = 3<\(h("/etc/hostname"))>
            201 <... openat resumed>)              = 7<\(h("/pkg/b.txt"))>
            """
        let accesses = InputTrace(log: log).accesses
        #expect(accesses.count == 3)
        #expect(accesses.last == .init(kind: .read, path: "/pkg/b.txt", resolved: "/pkg/b.txt", pid: 201))
    }

    @Test(
        "a thread or child runs its parent's program until it starts its own, even when its lines come first")
    func programsFollowClones() {
        let h = Self.hex
        let log = """
            300 execve("\(h("/opt/swift/usr/bin/swift-test"))", [], 0x1 /* 0 vars */) = 0
            300 clone3({flags=CLONE_VM|CLONE_THREAD, exit_signal=0}, 88 <unfinished ...>
            301 openat(AT_FDCWD<\(h("/pkg"))>, "\(h("Package.swift"))", O_RDONLY) = 3<\(h("/pkg/Package.swift"))>
            300 <... clone3 resumed>)        = 301
            300 vfork() = 302
            302 execve("\(h("/pkg/.build/debug/PkgPackageTests.xctest"))", [], 0x1 /* 0 vars */) = 0
            302 clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD) = 303
            303 openat(AT_FDCWD<\(h("/pkg"))>, "\(h("data.txt"))", O_RDONLY) = 4<\(h("/pkg/data.txt"))>
            """
        let trace = InputTrace(log: log)
        let reads = trace.accesses.filter { $0.kind == .read }
        #expect(
            reads.map(\.program) == [
                "/opt/swift/usr/bin/swift-test", "/pkg/.build/debug/PkgPackageTests.xctest",
            ])
        // Only what the bundle's child read is the suite's: SwiftPM's thread's read is not.
        #expect(trace.ranTests)
        #expect(reads.map(\.byTest) == [false, true])
        let selection = RecordedInputSelection(
            root: URL(fileURLWithPath: "/pkg"), localDependencies: [],
            toolchain: URL(fileURLWithPath: "/opt/swift/usr"))
        #expect(selection.toolchain == "/opt/swift/usr")
    }

    @Test("any byte of a name reads back, spaces and UTF-8 included")
    func decodesNames() {
        #expect(InputTrace.decode(Substring(Self.hex("/tmp/é b\"c.txt"))) == "/tmp/é b\"c.txt")
        #expect(InputTrace.decode("\\x2f\\x7") == nil)
        #expect(InputTrace.decode("plain") == nil)
    }

    @Test(
        "a real strace run: a file through a link and through .., a child's read, a listing; the temporary folder and SwiftPM's own process left out",
        .enabled(if: Shell.isOnPath("strace"), "strace is not installed (Tools/install-system-packages)"))
    func realTrace() async throws {
        let package = try TemporaryFolder()
        try package.write("real\n", to: "Data/real.txt")
        try package.write("up\n", to: "Data/up.txt")
        try package.write("child\n", to: "Data/child.txt")
        try package.write("listed\n", to: "Listed/one.txt")
        try FileManager.default.createSymbolicLink(
            atPath: package.url.appendingPathComponent("alias.txt").path, withDestinationPath: "Data/real.txt"
        )
        let log = package.url.appendingPathComponent("trace.log")
        // The root process is the command itself (SwiftPM's, in a real run); its own reads do
        // not count, so the reads happen in a child shell.
        let script = """
            sh -c 'cat alias.txt Data/../Data/up.txt > /dev/null; sh -c "cat Data/child.txt" > /dev/null; \
            ls Listed > /dev/null; cat Data/missing.txt 2> /dev/null; cat "$TMPDIR/nothing" 2> /dev/null; true'
            """
        let result = try await Shell.run(
            "strace", InputTrace.wrapping(["sh", "-c", script], log: log), in: package.url,
            environment: ["TMPDIR": FileManager.default.temporaryDirectory.path])
        #expect(result.succeeded, "\(result.errorText)")
        let trace = InputTrace(log: try String(contentsOf: log, encoding: .utf8))
        let selection = RecordedInputSelection(root: package.url, localDependencies: [], toolchain: nil)
        let described = DescribedPackage(name: "Traced", path: package.url.path, targets: [])
        let cacheInputs = try TestCacheInputs(
            root: package.url, package: described, toolchain: "", configuration: "debug", flags: [],
            environment: [:], declaredVariables: [])
        let inputs = selection.inputs(of: trace, in: cacheInputs)
        let files = Set(inputs.filter { $0.kind == .file }.map(\.path))
        #expect(files.isSuperset(of: ["alias.txt", "Data/real.txt", "Data/up.txt", "Data/child.txt"]))
        #expect(files.contains("Data/missing.txt"))
        #expect(inputs.first { $0.path == "Data/missing.txt" }?.digest == RecordedInput.absent)
        #expect(inputs.contains { $0.kind == .listing && $0.path == "Listed" })
        #expect(inputs.contains { $0.kind == .executable && $0.path.hasSuffix("/cat") })
        #expect(!inputs.contains { $0.path.contains("trace.log") })
        #expect(
            !inputs.contains { $0.path.hasPrefix(FileManager.default.temporaryDirectory.path + "/nothing") })

        // Each input's digest is what is there now; a change shows, a revert does not.
        let real = try #require(inputs.first { $0.path == "Data/real.txt" })
        #expect(real.currentDigest(in: cacheInputs) == real.digest)
        try package.write("changed\n", to: "Data/real.txt")
        #expect(real.currentDigest(in: cacheInputs) != real.digest)
        try FileManager.default.removeItem(at: package.url.appendingPathComponent("Data/real.txt"))
        #expect(real.currentDigest(in: cacheInputs) == RecordedInput.absent)
    }

    @Test(
        "a read of an undeclared variable is found once, with its line; declared ones, writes and locations are not"
    )
    func undeclaredVariables() {
        let source = """
            import Foundation
            let mode = ProcessInfo.processInfo.environment["TINY_MODE"]
            let again = ProcessInfo.processInfo.environment["TINY_MODE"] ?? ""
            let other = getenv("OTHER_FLAG")
            var environment: [String: String] = [:]
            environment["WRITTEN"] = "1"
            let declared = ProcessInfo.processInfo.environment["NO_COLOR"]
            let path = ProcessInfo.processInfo.environment["PATH"]
            /// Reads `ProcessInfo.processInfo.environment["IN_A_COMMENT"]`.
            """
        let findings = UndeclaredVariables.findings(
            in: source, file: "Tests/ATests/A.swift", declared: ["NO_COLOR"])
        #expect(findings.map(\.variable) == ["TINY_MODE", "OTHER_FLAG"])
        #expect(findings.map(\.line) == [2, 4])
        #expect(findings.first?.warning.contains("Tests/ATests/A.swift:2") == true)
        #expect(findings.first?.warning.contains("| `TINY_MODE` | why |") == true)
    }

    @Test(
        "a package's folders are scanned file by file; a Swift file that is not UTF-8 is named, not skipped in silence"
    )
    func foldersWithADamagedFile() throws {
        let package = try TemporaryFolder()
        try package.write(
            "let flag = ProcessInfo.processInfo.environment[\"TINY_MODE\"]\n", to: "Tests/ATests/A.swift")
        let damaged = package.url.appendingPathComponent("Tests/ATests/Damaged.swift")
        try Data([0x6C, 0x65, 0x74, 0x20, 0xFF, 0xFE, 0x0A]).write(to: damaged)
        let scan = UndeclaredVariables.findings(inFolders: ["Tests/ATests"], root: package.url, declared: [])
        #expect(scan.findings.map(\.variable) == ["TINY_MODE"])
        #expect(scan.unscanned.count == 1)
        #expect(scan.unscanned.first?.hasPrefix("Tests/ATests/Damaged.swift: ") == true, "\(scan.unscanned)")
        let missing = UndeclaredVariables.findings(inFolders: ["Nowhere"], root: package.url, declared: [])
        #expect(
            missing.findings.isEmpty && missing.unscanned.isEmpty,
            "a folder that does not exist holds no files")
    }

    @Test("a read written out inside a multi-line string is text, not a read; the code after it is")
    func variablesInsideMultiLineStrings() {
        let quotes = String(repeating: "\"", count: 3)
        let source = [
            "let package = \(quotes)",
            "    #expect(ProcessInfo.processInfo.environment[\"IN_TEXT\"] == nil)",
            "    \(quotes)",
            "let real = getenv(\"AFTER_TEXT\")",
        ].joined(separator: "\n")
        let findings = UndeclaredVariables.findings(in: source, file: "Tests/ATests/A.swift", declared: [])
        #expect(findings.map(\.variable) == ["AFTER_TEXT"])
        #expect(findings.map(\.line) == [4])
    }

    @Test(
        "an interpolation inside a multi-line string reads; code beside a delimiter reads; a delimiter in a comment or a one-line string opens nothing"
    )
    func variablesAroundMultiLineStrings() {
        let quotes = String(repeating: "\"", count: 3)
        let source = [
            "// a comment with \(quotes) in it",
            "let url = \"http://example\"; let a = getenv(\"AFTER_URL\")",
            "let text = \(quotes)",
            "    value: \\(ProcessInfo.processInfo.environment[\"IN_INTERPOLATION\"] ?? \"\")",
            "    \\\(quotes) escaped, still text: getenv(\"ESCAPED_TEXT\")",
            "    \(quotes) + (getenv(\"BESIDE_CLOSING\").map { String(cString: $0) } ?? \"\")",
            "let b = getenv(\"BEFORE_OPENING\"); let more = \(quotes)",
            "    getenv(\"IN_TEXT\")",
            "    \(quotes)",
            "let c = getenv(\"AT_THE_END\")",
        ].joined(separator: "\n")
        let findings = UndeclaredVariables.findings(in: source, file: "Tests/ATests/A.swift", declared: [])
        #expect(
            findings.map(\.variable) == [
                "AFTER_URL", "IN_INTERPOLATION", "BESIDE_CLOSING", "BEFORE_OPENING", "AT_THE_END",
            ])
        #expect(findings.map(\.line) == [2, 4, 6, 7, 10])
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
