import Foundation
import RibcagePackage
import Synchronization
import Testing

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// The check `Shell` makes before it starts a child: its turn, and descriptors to spare. What
/// the check keeps from happening is shown on the built tool by ``DescriptorLimitTests``.
@Suite("Free descriptors before a child starts")
struct DescriptorHeadroomTests {
    /// That more than are free cannot is shown in a child of its own (``DescriptorLimitTests``):
    /// here, using up the table for a moment would fail whatever other test opened a file then.
    @Test("a start's worth of copies of a descriptor can be open")
    func canOpenAStartsWorth() throws {
        let null = try FileDescriptor.open("/dev/null", .readOnly)
        defer { try? null.close() }
        #expect(DescriptorHeadroom.canOpen(DescriptorHeadroom.perStart, copying: null))
    }

    @Test(
        "the copies opened to count are closed again: counting over and over never runs out",
        .enabled(
            if: DescriptorHeadroom.softLimit <= 1 << 20, "a limit this high takes too many rounds to pass"))
    func copiesAreClosed() throws {
        let null = try FileDescriptor.open("/dev/null", .readOnly)
        defer { try? null.close() }
        // Left open, the copies would pass the limit well before the last round.
        for round in 0..<(DescriptorHeadroom.softLimit / 16 + 2) {
            try #require(DescriptorHeadroom.canOpen(16, copying: null), "round \(round) ran out")
        }
    }

    @Test("one start at a time: the next waits until the first has ended", .timeLimit(.minutes(10)))
    func startsTakeTurns() async throws {
        let first = try await DescriptorHeadroom.beginStart(of: "first")
        let name = "second \(UUID())"
        let secondBegan = Flag()
        let second = Task {
            let start = try await DescriptorHeadroom.beginStart(of: name)
            secondBegan.raise()
            start.end()
        }
        while !DescriptorHeadroom.isWaiting(toStart: name) { await Task.yield() }
        #expect(!secondBegan.isRaised, "the second start began during the first")
        first.end()
        first.end()  // a second end passes no turn it does not hold
        try await second.value
        #expect(secondBegan.isRaised)
        #expect(!DescriptorHeadroom.isWaiting(toStart: name))
    }

    @Test(
        "a start cancelled while it waits for its turn throws, and passes the turn on",
        .timeLimit(.minutes(10)))
    func cancelledWhileWaiting() async throws {
        let first = try await DescriptorHeadroom.beginStart(of: "first")
        let name = "cancelled \(UUID())"
        let cancelled = Task { try await DescriptorHeadroom.beginStart(of: name) }
        while !DescriptorHeadroom.isWaiting(toStart: name) { await Task.yield() }
        cancelled.cancel()
        first.end()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        // Had the cancelled start kept the turn, this would wait for ever.
        try await DescriptorHeadroom.beginStart(of: "third").end()
    }

    @Test("the error names the program and the limit, and how to raise it")
    func errorSaysWhatToDo() {
        let error = RibcageError.outOfFileDescriptors(command: "swift", limit: 20)
        #expect(error.exitCode == 71)
        #expect(error.description.contains("`swift`"))
        #expect(error.description.contains("is 20"))
        #expect(error.description.contains("ulimit -n"))
    }

    private final class Flag: Sendable {
        private let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .relaxed) }
        func raise() { raised.store(true, ordering: .relaxed) }
    }
}
