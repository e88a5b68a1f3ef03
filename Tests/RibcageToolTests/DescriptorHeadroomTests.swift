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

    @Test("the copies opened to count are closed again: counting over and over never runs out")
    func copiesAreClosed() throws {
        let null = try FileDescriptor.open("/dev/null", .readOnly)
        defer { try? null.close() }
        let limit = DescriptorHeadroom.softLimit
        try #require(limit < 1 << 20, "the soft limit is \(limit): too many copies to try")
        // Left open, the copies would pass the limit well before the last round.
        for round in 0..<(limit / 16 + 2) {
            try #require(DescriptorHeadroom.canOpen(16, copying: null), "round \(round) ran out")
        }
    }

    @Test("one start at a time: the next waits until the first has ended", .timeLimit(.minutes(10)))
    func startsTakeTurns() async throws {
        let null = try FileDescriptor.open("/dev/null", .readOnly)
        defer { try? null.close() }
        let first = try await DescriptorHeadroom.beginStart(of: "first", spare: null)
        let secondBegan = Flag()
        let second = Task {
            let start = try await DescriptorHeadroom.beginStart(of: "second", spare: null)
            secondBegan.raise()
            start.end()
        }
        for _ in 0..<100 { await Task.yield() }
        #expect(!secondBegan.isRaised, "the second start began during the first")
        first.end()
        first.end()  // a second end passes no turn it does not hold
        try await second.value
        #expect(secondBegan.isRaised)
        // The turn is free again: a third start goes at once.
        try await DescriptorHeadroom.beginStart(of: "third", spare: null).end()
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
