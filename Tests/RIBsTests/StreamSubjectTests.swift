import RIBs
import Testing

@Suite("StreamSubject")
struct StreamSubjectTests {
    @Test("a replaying subject gives each new subscriber its current value first")
    func replays() async throws {
        let subject = StreamSubject(replaying: 1)
        subject.send(2)
        #expect(subject.stream.currentValue == 2)
        var iterator = subject.stream.makeAsyncIterator()
        subject.send(3)
        #expect(try await nextValue(&iterator) == 2)
        #expect(try await nextValue(&iterator) == 3)
    }

    @Test("a publishing subject sends only what comes after the subscription")
    func publishes() async throws {
        let subject = StreamSubject<Int>()
        subject.send(1)
        var iterator = subject.stream.makeAsyncIterator()
        subject.send(2)
        subject.finish()
        #expect(try await nextValue(&iterator) == 2)
        #expect(await iterator.next() == nil)
        #expect(subject.value == nil)
    }

    @Test("finishing ends iterators, completes sinks, and turns away later subscribers")
    func finishes() async {
        let subject = StreamSubject(replaying: 0)
        let completions = Recorder<String>()
        subject.stream.sink(receiveValue: { _ in }, receiveCompletion: { completions.append("early") })
        subject.finish()
        subject.send(5)
        subject.stream.sink(
            receiveValue: { _ in completions.append("value") },
            receiveCompletion: { completions.append("late") })
        var iterator = subject.stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        #expect(completions.values == ["early", "late"])
        #expect(subject.subscriberCount == 0)
    }

    @Test("cancelled sinks and dropped iterators unsubscribe")
    func unsubscribes() async {
        let subject = StreamSubject(replaying: 0)
        let received = Recorder<Int>()
        let sink = subject.stream.sink { received.append($0) }
        do {
            var iterator = subject.stream.makeAsyncIterator()
            _ = await iterator.next()
            #expect(subject.subscriberCount == 2)
        }
        sink.cancel()
        subject.send(1)
        #expect(received.values == [0])
        // The dropped iterator's stream terminates asynchronously.
        for _ in 0..<100 where subject.subscriberCount > 0 { await Task.yield() }
        #expect(subject.subscriberCount == 0)
    }

    @Test("a sink may send to its own subject without deadlocking")
    func reentrantSink() {
        let subject = StreamSubject(replaying: 0)
        let received = Recorder<Int>()
        subject.stream.sink { value in
            received.append(value)
            if value == 1 { subject.send(2) }
        }
        subject.send(1)
        #expect(received.values == [0, 1, 2])
    }

    @Test("CancelBag cancels everything inserted, and anything inserted after it was cancelled")
    func cancelBag() {
        let bag = CancelBag()
        let first = AnyCancellable {}
        bag.insert(first)
        bag.cancel()
        let late = AnyCancellable {}
        bag.insert(late)
        #expect(first.isCancelled)
        #expect(late.isCancelled)
        #expect(bag.count == 0)
    }
}
