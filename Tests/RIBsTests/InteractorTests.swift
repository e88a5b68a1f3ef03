import RIBs
import Testing

@MainActor
@Suite("Interactor", .recordingLeakDetector)
struct InteractorTests {
    @Test("is inactive by default")
    func inactiveByDefault() {
        #expect(!InteractorMock().isActive)
    }

    @Test("is active once activated, inactive once deactivated")
    func activeState() {
        let interactor = InteractorMock()
        interactor.activate()
        #expect(interactor.isActive)
        interactor.deactivate()
        #expect(!interactor.isActive)
    }

    @Test("calls didBecomeActive once per activation, however often activate is called")
    func didBecomeActiveOnce() {
        let interactor = InteractorMock()
        interactor.activate()
        interactor.activate()
        #expect(interactor.didBecomeActiveCount == 1)
    }

    @Test("calls willResignActive only when it was active")
    func willResignActiveOnlyWhenActive() {
        let interactor = InteractorMock()
        interactor.deactivate()
        #expect(interactor.willResignActiveCount == 0)
        interactor.activate()
        interactor.deactivate()
        interactor.deactivate()
        #expect(interactor.willResignActiveCount == 1)
    }

    @Test("runs callbacks in RIBs-iOS order: true before didBecomeActive, willResignActive while active")
    func callbackOrder() {
        let interactor = InteractorMock()
        let recorder = Recorder<Bool>()
        interactor.isActiveStream.sink { value in
            MainActor.assumeIsolated { interactor.events.append("stream(\(value))") }
            recorder.append(value)
        }
        interactor.activate()
        interactor.deactivate()
        #expect(
            interactor.events == [
                "stream(false)", "stream(true)", "didBecomeActive(isActive: true)",
                "willResignActive(isActive: true)", "stream(false)",
            ])
    }

    @Test("isActiveStream replays the current value and sends only changes")
    func streamReplaysAndDeduplicates() async throws {
        let interactor = InteractorMock()
        interactor.activate()
        var iterator = interactor.isActiveStream.makeAsyncIterator()
        interactor.activate()
        interactor.deactivate()
        interactor.deactivate()
        interactor.activate()
        #expect(try await nextValue(&iterator) == true)
        #expect(try await nextValue(&iterator) == false)
        #expect(try await nextValue(&iterator) == true)
    }

    @Test("isActiveStream finishes when the interactor is deallocated")
    func streamFinishesOnDeinit() async throws {
        var interactor: InteractorMock? = InteractorMock()
        var iterator = try #require(interactor).isActiveStream.makeAsyncIterator()
        #expect(try await nextValue(&iterator) == false)
        interactor = nil
        #expect(await iterator.next() == nil)
    }

    @Test("a deallocated active interactor resigns first")
    func deinitDeactivates() {
        let recorder = Recorder<Bool>()
        var interactor: InteractorMock? = InteractorMock()
        interactor?.activate()
        interactor?.isActiveStream.sink(
            receiveValue: { recorder.append($0) }, receiveCompletion: { recorder.append(true) })
        interactor = nil
        // current true, then false on deactivation, then the completion marker.
        #expect(recorder.values == [true, false, true])
    }

    @Test("work bound to an inactive interactor is cancelled at once")
    func boundWhileInactive() {
        let interactor = InteractorMock()
        let work = AnyCancellable {}
        work.cancelOnDeactivate(interactor: interactor)
        #expect(work.isCancelled)
    }

    @Test("work bound while active is cancelled on deactivation, not before")
    func cancelledOnDeactivate() {
        let interactor = InteractorMock()
        interactor.activate()
        let work = AnyCancellable {}
        work.cancelOnDeactivate(interactor: interactor)
        #expect(!work.isCancelled)
        interactor.deactivate()
        #expect(work.isCancelled)
    }

    @Test("work bound while active is cancelled when the interactor is deallocated")
    func cancelledOnDeinit() {
        var interactor: InteractorMock? = InteractorMock()
        interactor?.activate()
        let work = AnyCancellable {}
        if let interactor { work.cancelOnDeactivate(interactor: interactor) }
        interactor = nil
        #expect(work.isCancelled)
    }

    @Test("a scoped task is cancelled on deactivation")
    func scopedTaskCancelled() async {
        let interactor = InteractorMock()
        interactor.activate()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let task = interactor.task {
            startedContinuation.yield()
            while !Task.isCancelled { await Task.yield() }
        }
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()
        #expect(!task.isCancelled)
        interactor.deactivate()
        #expect(task.isCancelled)
        await task.value
    }

    @Test("a task started while inactive is cancelled at once")
    func scopedTaskWhileInactive() {
        let interactor = InteractorMock()
        let task = interactor.task {}
        #expect(task.isCancelled)
    }
}
