import Foundation
import RibcageTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The walk under every test-cache key: which files a target's folder is made of, and a typed
/// error whenever part of it cannot be read (a key from part of the files would hide a change).
@Suite("File tree digests")
struct FileTreeDigestsTests {
    static func paths(under folder: TemporaryFolder) throws -> [String] {
        try FileTreeDigests.files(under: folder.url.path).map(\.path).sorted()
    }

    static func link(_ name: String, to destination: String, in folder: TemporaryFolder) throws {
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent(name).path, withDestinationPath: destination)
    }

    @Test("a link to a file counts as that file, under the link's name and with its bytes")
    func linkToFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("let shared = 1\n", to: "Real/Shared.swift")
        try Self.link("Linked.swift", to: "Real/Shared.swift", in: folder)
        let files = try FileTreeDigests.files(under: folder.url.path)
        let digests = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.digest) })
        #expect(digests.keys.sorted() == ["Linked.swift", "Real/Shared.swift"])
        #expect(digests["Linked.swift"] == digests["Real/Shared.swift"])
    }

    @Test("a link to a folder is walked, as SwiftPM compiles what it holds")
    func linkToFolderWalked() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        try outside.write("let a = 1\n", to: "Deep/A.swift")
        try folder.write("let b = 1\n", to: "B.swift")
        try Self.link("Linked", to: outside.url.path, in: folder)
        #expect(try Self.paths(under: folder) == ["B.swift", "Linked/Deep/A.swift"])
    }

    @Test("a dangling link, a loop of links and a link back to an enclosing folder are skipped")
    func linksSkipped() throws {
        let folder = try TemporaryFolder()
        try folder.write("let b = 1\n", to: "B.swift")
        try folder.write("let c = 1\n", to: "Inner/C.swift")
        try Self.link("Dangling.swift", to: "Gone.swift", in: folder)
        try Self.link("Loop1", to: "Loop2", in: folder)
        try Self.link("Loop2", to: "Loop1", in: folder)
        try Self.link("Inner/Up", to: "..", in: folder)
        #expect(try Self.paths(under: folder) == ["B.swift", "Inner/C.swift"])
    }

    @Test(".build, .swiftpm and .git folders and .DS_Store files inside a target are left out")
    func buildFoldersSkipped() throws {
        let folder = try TemporaryFolder()
        try folder.write("let a = 1\n", to: "A.swift")
        try folder.write("x\n", to: ".build/debug/A.o")
        try folder.write("x\n", to: "Nested/.git/HEAD")
        try folder.write("x\n", to: ".swiftpm/config")
        try folder.write("x\n", to: "Nested/.DS_Store")
        try folder.write("x\n", to: "Nested/.hidden")
        #expect(try Self.paths(under: folder) == ["A.swift", "Nested/.hidden"])
    }

    /// True when a mode-000 file can still be opened, as it can by root (CAP_DAC_OVERRIDE).
    static let userReadsUnreadableFiles: Bool = {
        guard let folder = try? TemporaryFolder(), (try? folder.write("x", to: "probe")) != nil else {
            return false
        }
        let probe = folder.url.appendingPathComponent("probe").path
        chmod(probe, 0)
        let descriptor = open(probe, O_RDONLY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }()

    @Test(
        "a file that cannot be opened is a ReadError naming it",
        .disabled(
            if: Self.userReadsUnreadableFiles,
            "this user (root) reads mode-000 files; a failed listing is tested for every user below"))
    func unreadableFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("let secret = 1\n", to: "Secret.swift")
        let secret = folder.url.appendingPathComponent("Secret.swift").path
        chmod(secret, 0)
        let error = #expect(throws: FileTreeDigests.ReadError.self) {
            try FileTreeDigests.files(under: folder.url.path)
        }
        #expect(error?.path == secret)
        #expect(error?.reason == String(cString: strerror(EACCES)))
    }

    /// `readdir` returns nil at the end of a folder and on a failed read alike. A real failed
    /// read: `/proc/PID/fd` of a process reaped after the folder was found fails with ENOENT.
    @Test("a folder whose listing fails part-way is a ReadError, not the files listed so far")
    func listingFails() async throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["60"]
        let exited = AsyncStream<Void>.makeStream()
        child.terminationHandler = { _ in exited.continuation.finish() }
        try child.run()
        let opened = open("/proc/\(child.processIdentifier)/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // SIGKILL: the test runner's children may inherit SIGTERM blocked.
        kill(child.processIdentifier, SIGKILL)
        for await _ in exited.stream {}
        try #require(opened >= 0, "this system has no /proc")
        defer { close(opened) }
        // Opened through its magic link, the folder opens; listing it fails.
        let folder = "/proc/self/fd/\(opened)"
        let error = #expect(throws: FileTreeDigests.ReadError.self) {
            try FileTreeDigests.files(under: folder)
        }
        #expect(error?.path == folder)
        #expect(error?.reason == String(cString: strerror(ENOENT)))
    }
}
