import Foundation
import RibcagePackage
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The completion scripts that `ribcage --generate-completion-script` writes, sourced into a real
/// shell and asked to complete, the way bash asks when Tab is pressed: the built executable
/// answers the dynamic parts (module names) itself.
@Suite("Shell completion", .serialized)
struct CompletionScriptTests {
    /// Sources the bash script, then completes each line given as an argument, as bash's
    /// programmable completion would with the cursor at the line's end. Prints one line per
    /// request: its completions, sorted, separated by spaces.
    static let bashDriver = #"""
        export LC_ALL=C  # `sort` in byte order, whatever the machine's locale
        source "$1"
        shift
        for line in "$@"; do
            COMP_LINE="$line"
            COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *' ' ]] && COMP_WORDS+=('')
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMPREPLY=()
            # What bash itself does on Tab: the function named by `complete -F` for `ribcage`.
            function=$(complete -p ribcage | sed -E 's/.*-F ([^ ]+) .*/\1/')
            "$function" ribcage "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
            echo
        done
        """#

    /// The completions bash offers for each of `lines`, with the built `ribcage` first on PATH,
    /// after `pathPrefix`; `timeout` is ribcage's for `swift package describe`, generous by
    /// default: a first describe compiles the manifest, on a machine busy with other tests.
    static func bashCompletions(
        _ lines: [String], pathPrefix: [URL] = [], timeout: Int = 120
    ) async throws -> [[String]] {
        let executable = try await RibcageExecutableTests.ribcageExecutable()
        let folder = try TemporaryFolder()
        let script = try await Shell.run(executable.path, ["--generate-completion-script", "bash"])
        #expect(script.succeeded, "\(script.errorText)")
        try folder.write(script.outputText, to: "ribcage.bash")
        try folder.write(bashDriver, to: "driver.bash")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        // In a folder with no package above it: a line without --path completes from no
        // package, not from this workspace, whose answers would change with every module added
        // (`whileBuildLockHeld` pins that a held .build lock no longer makes Tab wait).
        let run = try await Shell.run(
            "bash",
            ["--norc", "--noprofile", folder.url.appendingPathComponent("driver.bash").path]
                + [folder.url.appendingPathComponent("ribcage.bash").path] + lines,
            in: folder.url,
            environment: [
                "PATH": (pathPrefix + [executable.deletingLastPathComponent()]).map(\.path).joined(
                    separator: ":")
                    + ":" + path,
                "RIBCAGE_COMPLETION_TIMEOUT": "\(timeout)",
            ])
        #expect(run.succeeded, "\(run.errorText)")
        let answers = run.outputText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        try #require(answers.count == lines.count, "\(run.outputText)\(run.errorText)")
        return answers.map { $0.split(separator: " ").map(String.init) }
    }

    @Test("bash completes subcommands, options and option values from the script alone")
    func staticCompletions() async throws {
        let answers = try await Self.bashCompletions([
            "ribcage gr",
            "ribcage ",
            "ribcage test --sh",
            "ribcage graph --fo",
            "ribcage graph --format ",
            "ribcage graph --algorithm ci",
            "ribcage build --configuration ",
            "ribcage new ",
        ])
        #expect(answers[0] == ["graph"])
        #expect(
            answers[1] == [
                "--help", "-h", "build", "flaky", "graph", "help", "lint", "new", "test", "why", "worker",
            ])
        #expect(answers[2] == ["--shard"])
        #expect(answers[3] == ["--focus", "--format"])
        #expect(answers[4] == ["dot", "json", "mermaid", "png", "svg"])
        #expect(answers[5] == ["circo"])
        #expect(answers[6] == ["debug", "release"])
        #expect(answers[7] == ["--help", "-h", "module", "rib"])
    }

    @Test("bash completes module names that the built ribcage reads from the package on the line")
    func moduleNames() async throws {
        let fixture = try await RibcageExecutableTests.makeFixture()
        let path = fixture.url.path
        let answers = try await Self.bashCompletions([
            "ribcage test --path \(path) Go",
            "ribcage test --path \(path) ",
            "ribcage graph --path \(path) --focus B",
            "ribcage why --path \(path) Good U",
        ])
        #expect(answers[0] == ["Good", "GoodTests"])
        #expect(answers[1] == ["Bad", "BadTests", "Good", "GoodTests", "Untested"])
        #expect(answers[2] == ["Bad", "BadTests"])
        #expect(answers[3] == ["Untested"])
    }

    /// SwiftPM's lock on a package's `.build`, as a build holds it: an exclusive `flock` on a
    /// file in the temporary folder named after the `.build` path (SwiftPM 6.3).
    static func holdBuildLock(of package: URL) throws -> Int32 {
        let name = package.appendingPathComponent(".build").path.replacingOccurrences(of: "/", with: "_")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(name + ".lock").path
        let descriptor = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0o666)
        try #require(descriptor >= 0, "cannot open \(file)")
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0, "cannot lock \(file)")
        return descriptor
    }

    @Test("Tab while a build holds the package's .build lock still completes module names")
    func whileBuildLockHeld() async throws {
        let fixture = try await RibcageExecutableTests.makeFixture()
        let path = fixture.url.path
        let lock = try Self.holdBuildLock(of: fixture.url)
        defer { close(lock) }
        // The lock is the one SwiftPM waits for: a describe without --ignore-lock does.
        let waiting = try await Shell.run(
            "swift", ["package", "describe", "--type", "json"], in: fixture.url, timeout: .seconds(5))
        #expect(waiting == nil, "describe did not wait for the held lock: \(waiting?.errorText ?? "")")
        let answers = try await Self.bashCompletions(["ribcage test --path \(path) Go"])
        #expect(answers == [["Good", "GoodTests"]])
    }

    @Test("a describe slower than the completion timeout gives no candidates, not a hang")
    func slowDescribe() async throws {
        let fixture = try await RibcageExecutableTests.makeFixture()
        let tools = try TemporaryFolder()
        try tools.write("#!/bin/sh\nexec sleep 120\n", to: "swift")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: tools.url.appendingPathComponent("swift").path)
        let clock = ContinuousClock()
        let start = clock.now
        let answers = try await Self.bashCompletions(
            ["ribcage test --path \(fixture.url.path) Go"], pathPrefix: [tools.url], timeout: 1)
        #expect(answers == [[]])
        // Not a speed measurement: whether the 120 s describe was given up on at all.
        #expect(clock.now - start < .seconds(60))
    }

    @Test("bash completes new rib --parent with the features of the modules table")
    func parentFeatures() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription

            let modules: [Module] = [
                .module("RIBs", layer: .core),
                .feature("Root", dependencies: ["RIBs"]),
                .feature(
                    "Settings",
                    dependencies: ["RIBs"]),
                .feature("Search", dependencies: ["RIBs"]),
                .app("TodoApp", dependencies: ["Root"]),
            ]
            """, to: "Package.swift")
        let answers = try await Self.bashCompletions([
            "ribcage new rib Profile --path \(folder.url.path) --parent ",
            "ribcage new rib Profile --path \(folder.url.path) --parent S",
        ])
        #expect(answers[0] == ["Root", "Search", "Settings"])
        #expect(answers[1] == ["Search", "Settings"])
    }

    @Test("zsh and fish scripts are generated, and checked by the shell when it is installed")
    func otherShells() async throws {
        let executable = try await RibcageExecutableTests.ribcageExecutable()
        for shell in ["zsh", "fish"] {
            let script = try await Shell.run(executable.path, ["--generate-completion-script", shell])
            #expect(script.succeeded, "\(script.errorText)")
            for word in ["graph", "--focus", "---completion"] {
                #expect(script.outputText.contains(word), "the \(shell) script does not mention \(word)")
            }
            guard Shell.executablePath(shell) != nil else { continue }
            let folder = try TemporaryFolder()
            try folder.write(script.outputText, to: "ribcage.\(shell)")
            let check = try await Shell.run(
                shell, ["-n", folder.url.appendingPathComponent("ribcage.\(shell)").path])
            #expect(check.succeeded, "\(shell) -n: \(check.errorText)")
        }
    }
}
