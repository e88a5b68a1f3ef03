import RIBs
import Testing

@MainActor
final class WorkerMock: Worker {
    var didStartCount = 0
    var didStopCount = 0
    var lastScope: (any InteractorScope)?

    override func didStart(_ interactorScope: any InteractorScope) {
        didStartCount += 1
        lastScope = interactorScope
    }

    override func didStop() {
        didStopCount += 1
    }
}

@MainActor
@Suite("Worker", .recordingLeakDetector)
struct WorkerTests {
    @Test("runs while started and the interactor is active, restarting on every re-activation")
    func boundToInteractor() {
        let worker = WorkerMock()
        let interactor = InteractorMock()
        // (step, didStart count, didStop count) — RIBs-iOS's test table.
        worker.start(interactor)
        #expect((worker.didStartCount, worker.didStopCount) == (0, 0))
        interactor.activate()
        #expect((worker.didStartCount, worker.didStopCount) == (1, 0))
        worker.start(interactor)
        #expect((worker.didStartCount, worker.didStopCount) == (1, 0), "a second start is a no-op")
        interactor.deactivate()
        #expect((worker.didStartCount, worker.didStopCount) == (1, 1))
        interactor.activate()
        #expect((worker.didStartCount, worker.didStopCount) == (2, 1))
        worker.stop()
        #expect((worker.didStartCount, worker.didStopCount) == (2, 2))
        interactor.deactivate()
        interactor.activate()
        #expect((worker.didStartCount, worker.didStopCount) == (2, 2), "a stopped worker no longer follows")
        #expect(worker.lastScope === interactor, "didStart gets the interactor itself")
    }

    @Test("isStarted and its stream follow start and stop")
    func startedState() async throws {
        let worker = WorkerMock()
        var states = worker.isStartedStream.makeAsyncIterator()
        let interactor = InteractorMock()
        worker.start(interactor)
        #expect(worker.isStarted)
        worker.stop()
        worker.stop()
        #expect(!worker.isStarted)
        #expect(try await nextValue(&states) == false)
        #expect(try await nextValue(&states) == true)
        #expect(try await nextValue(&states) == false)
        #expect(worker.didStopCount == 0, "never ran, so never stopped running")
    }

    @Test("cancelOnStop cancels at stop, or at once when the worker is not running")
    func cancelOnStop() {
        let worker = WorkerMock()
        let interactor = InteractorMock()
        let early = AnyCancellable {}
        early.cancelOnStop(worker)
        #expect(early.isCancelled)

        worker.start(interactor)
        let startedButInactive = AnyCancellable {}
        startedButInactive.cancelOnStop(worker)
        #expect(startedButInactive.isCancelled)

        interactor.activate()
        let running = AnyCancellable {}
        running.cancelOnStop(worker)
        #expect(!running.isCancelled)
        interactor.deactivate()
        #expect(running.isCancelled)
    }

    @Test("never keeps its interactor alive")
    func weakScope() {
        let worker = WorkerMock()
        var interactor: InteractorMock? = InteractorMock()
        weak let weakInteractor = interactor
        if let interactor { worker.start(interactor) }
        interactor?.activate()
        worker.lastScope = nil
        interactor = nil
        #expect(weakInteractor == nil)
        #expect(worker.didStopCount == 1, "the interactor's deinit deactivated it")
    }
}
