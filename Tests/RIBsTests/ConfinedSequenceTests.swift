import RIBs
import Synchronization
import Testing

/// An AsyncStream that counts how often its consumer asked for the next value, so a test can
/// wait until every value sent so far has been taken and handled.
struct CountingStream<Element: Sendable>: AsyncSequence, Sendable {
    let base: AsyncStream<Element>
    let requests = Requests()

    final class Requests: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator
        let requests: Requests
        mutating func next() async -> Element? {
            requests.increment()
            return await base.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), requests: requests)
    }

    /// Waits until the consumer has asked for the `count`-th value.
    func waitForRequests(_ count: Int) async {
        let deadline = ContinuousClock.now + .seconds(600)
        while requests.value < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

@MainActor
@Suite("confine(to:)", .recordingLeakDetector)
struct ConfinedSequenceTests {
    @Test("lets values through only while active, and delivers the latest held value on re-activation")
    func gatesValues() async throws {
        let interactor = InteractorMock()
        let (stream, input) = AsyncStream<Int>.makeStream()
        let source = CountingStream(base: stream)
        var confined = source.confine(to: interactor).makeAsyncIterator()

        interactor.activate()
        input.yield(1)
        #expect(try await nextValue(&confined) == 1)

        interactor.deactivate()
        input.yield(2)
        input.yield(3)
        // The fourth request means 1, 2 and 3 have all been taken and handled while inactive.
        await source.waitForRequests(4)
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
