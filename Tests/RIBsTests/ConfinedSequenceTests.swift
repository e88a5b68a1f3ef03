import RIBs
import Testing

@MainActor
@Suite("confine(to:)", .recordingLeakDetector)
struct ConfinedSequenceTests {
    @Test("lets values through only while active, and delivers the latest held value on re-activation")
    func gatesValues() async throws {
        let interactor = InteractorMock()
        let (source, input) = AsyncStream<Int>.makeStream()
        var confined = source.confine(to: interactor).makeAsyncIterator()

        interactor.activate()
        input.yield(1)
        #expect(try await nextValue(&confined) == 1)

        interactor.deactivate()
        input.yield(2)
        input.yield(3)
        // Let the confining task take 2 and 3 while the scope is inactive.
        for _ in 0..<50 { await Task.yield() }
        interactor.activate()
        // 2 was replaced by 3 while inactive; 3 arrives on re-activation, then new values flow.
        #expect(try await nextValue(&confined) == 3)
        input.yield(4)
        #expect(try await nextValue(&confined) == 4)

        input.finish()
        #expect(await confined.next() == nil)
    }

    @Test("ends when the scope is deallocated")
    func endsWithScope() async {
        let (source, _) = AsyncStream<Int>.makeStream()
        var confined = source.confine(to: InteractorMock()).makeAsyncIterator()
        // The only strong reference to the interactor was the argument; it is gone now.
        #expect(await confined.next() == nil)
    }
}
