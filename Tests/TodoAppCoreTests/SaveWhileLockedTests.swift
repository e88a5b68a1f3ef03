import Data
import Domain
import DomainTesting
import Foundation
import HeadlessUI
import Layout
import LocalProvider
import RIBs
import Reactor
import Root
import Subprocess
import SystemPackage
import Testing
import TodoAppTesting

@testable import TodoAppCore

#if canImport(Glibc)
    import Glibc
#endif

@MainActor
@Suite("A save while another process holds the data folder's lock")
struct SaveWhileLockedTests {
    @Test(
        "the main actor goes on (a frame is drawn) while `save` waits for the lock, and the todo is saved once it is let go"
    )
    func mainActorRunsWhileSaveWaits() async throws {
        let home = try TemporaryHome()
        let folder = home.url
        // The save must wait until the other process is killed, however long the checks below
        // take: with the app's 5 s bound, a loaded machine timed it out first ("Not saved:
        // another process kept … locked"), one full run in several.
        let app = try StoredAppDependency(
            folder: folder, petPhotoRepository: InMemoryPetPhotoRepository(pet: .dog, answers: []),
            lockTimeout: .seconds(600))
        let (window, shell, router) = await app.launch(size: Size(width: 80, height: 24))
        #expect(shell.run("new") == .handled)
        let saving = try await whileAnotherProcessHoldsTheLock(of: folder) { @MainActor in
            let saving = SentActions.during { #expect(shell.run("save Buy milk") == .handled) }
            try await until { FolderLock.waitingThreads(in: folder) == 1 }
            // A tick of the main actor, as the terminal's run loop has when a redraw is asked for:
            // it runs, and draws, while the save waits for the other process.
            let frame = await Task { @MainActor in
                try? await Task.sleep(for: .milliseconds(20))
                return window.render().lines.joined(separator: "\n")
            }.value
            #expect(!saving.isReduced, "the save went through while another process held the lock")
            #expect(FolderLock.waitingThreads(in: folder) == 1, "the save still waits for the lock")
            #expect(frame.contains("Nothing here"), "a todo shows once it is saved: \(frame)")
            return saving
        }
        // The other process was killed with SIGKILL; the kernel let its lock go.
        await saving.reduced()
        let screen = window.render().lines.joined(separator: "\n")
        #expect(screen.contains("1. [ ] Buy milk"), "\(screen)")
        #expect(screen.contains("Added \"Buy milk\"."), "\(screen)")
        #expect(try await StoredTodoRepository(folder: folder).loadTodos().map(\.title) == ["Buy milk"])
        window.rootViewController = nil
        router.interactable.deactivate()
    }

    /// Returns once `condition` holds, checking every millisecond; fails after ten minutes.
    private func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(600))
        while !condition() {
            try #require(ContinuousClock.now < deadline, "waited ten minutes")
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}

/// Runs `body` while another process, the `storage-probe` built next to this test bundle, holds
/// `folder`'s lock (`storage-probe hold-lock`); the probe is killed with SIGKILL after.
func whileAnotherProcessHoldsTheLock<T: Sendable>(
    of folder: URL, _ body: @Sendable () async throws -> T
) async throws -> T {
    let testBinary = URL(
        fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    let probe = testBinary.deletingLastPathComponent().appendingPathComponent("storage-probe")
    try #require(FileManager.default.isExecutableFile(atPath: probe.path), "run `swift build` first")
    // The probe ends when its standard input closes: when this process is gone.
    let result = try await Subprocess.run(
        .path(FilePath(probe.path)), arguments: ["hold-lock", folder.path], input: .inputWriter,
        output: .sequence, error: .discarded
    ) { execution in
        for try await line in execution.standardOutput.strings() where line == "locked" { break }
        let value = try await body()
        try execution.send(signal: .kill)
        return value
    }
    return result.closureResult
}
