import RIBs
import Testing

@MainActor
final class RecordingWorkflow: Workflow<String> {
    var completeCount = 0
    var forkCount = 0
    var errors: [String] = []
    let done: AsyncStream<Void>
    private let doneContinuation: AsyncStream<Void>.Continuation

    override init() {
        (done, doneContinuation) = AsyncStream<Void>.makeStream()
        super.init()
    }

    override func didComplete() {
        completeCount += 1
        doneContinuation.yield()
    }

    override func didFork() { forkCount += 1 }

    override func didReceiveError(_ error: any Error) {
        errors.append(String(describing: error))
        doneContinuation.yield()
    }

    func waitForEvent() async {
        var iterator = done.makeAsyncIterator()
        await iterator.next()
    }
}

/// A finite async sequence of `values`, to fork into a workflow.
func elements<Element: Sendable>(_ values: Element...) -> AsyncStream<Element> {
    AsyncStream { continuation in
        for value in values { continuation.yield(value) }
        continuation.finish()
    }
}

struct StepFailure: Error, CustomStringConvertible {
    var description: String { "step failed" }
}

@MainActor
@Suite("Workflow", .recordingLeakDetector)
struct WorkflowTests {
    @Test("test_workflowDidComplete: runs each step once, in order, passing items and values along")
    func nestedStepsDoNotRepeat() async {
        let workflow = RecordingWorkflow()
        var calls: [String] = []
        workflow
            .onStep { root in
                calls.append("1:\(root)")
                return (root + "/a", 1)
            }
            .onStep { item, value in
                calls.append("2:\(item):\(value)")
                return (item + "/b", value + 1)
            }
            .onStep { item, value in
                calls.append("3:\(item):\(value)")
                return ((), ())
            }
            .commit()
        let handle = workflow.subscribe("root")
        await workflow.waitForEvent()
        #expect(calls == ["1:root", "2:root/a:1", "3:root/a/b:2"])
        #expect(workflow.completeCount == 1)
        _ = handle
    }

    @Test("test_workflowReceivesError: a throwing step goes to didReceiveError and stops its chain")
    func receivesError() async {
        let workflow = RecordingWorkflow()
        var reachedAfterError = false
        workflow
            .onStep { _ -> (String, Int)? in throw StepFailure() }
            .onStep { _, _ in
                reachedAfterError = true
                return ((), ())
            }
            .commit()
        _ = workflow.subscribe("root")
        await workflow.waitForEvent()
        #expect(workflow.errors == ["step failed"])
        #expect(!reachedAfterError)
        #expect(workflow.completeCount == 0)
    }

    @Test("Step.onError: a step's handler hears its own error and earlier steps' errors, not later ones")
    func stepOnError() async {
        let workflow = RecordingWorkflow()
        var heard: [String] = []
        workflow
            .onStep { item in (item, 1) }
            .onError { _ in heard.append("before the throwing step") }
            .onStep { _, _ -> (String, Int)? in throw StepFailure() }
            .onError { heard.append("throwing step: \($0)") }
            .onStep { item, value in (item, value) }
            .onError { heard.append("after: \($0)") }
            .commit()
        _ = workflow.subscribe("root")
        await workflow.waitForEvent()
        #expect(heard == ["throwing step: step failed", "after: step failed"])
        #expect(workflow.errors == ["step failed"])
    }

    @Test(
        "an error in a shared step reaches didReceiveError and onError once per committed chain, as in RIBs-iOS"
    )
    func sharedStepErrorPerCommittedChain() async {
        let workflow = RecordingWorkflow()
        var heard = 0
        let shared =
            workflow
            .onStep { _ -> (String, Int)? in throw StepFailure() }
            .onError { _ in heard += 1 }
        shared.fork().onStep { item, value in (item, value) }.commit()
        shared.fork().onStep { item, value in (item, value) }.commit()
        _ = workflow.subscribe("root")
        await workflow.waitForEvent()
        await workflow.waitForEvent()
        #expect(workflow.errors == ["step failed", "step failed"])
        #expect(heard == 2)
        #expect(workflow.completeCount == 0)
    }

    @Test(
        "test_nestedStepsDoNotRepeat: a sequence forked into the workflow from inside a running step runs its chain once"
    )
    func nestedForkedSequence() async {
        let workflow = RecordingWorkflow()
        var runs: [String: Int] = [:]
        let (innerDone, signal) = AsyncStream<Void>.makeStream()
        workflow
            .onStep { item in
                runs["outer 1", default: 0] += 1
                return (item, ())
            }
            .onStep { item, _ in
                runs["outer 2", default: 0] += 1
                let inner: Step<String, String, Int> = elements(("inner", 1)).fork(workflow)
                inner
                    .onStep { item, value in
                        runs["inner 1", default: 0] += 1
                        return (item, value + 1)
                    }
                    .onStep { _, value in
                        runs["inner 2:\(value)", default: 0] += 1
                        signal.yield()
                        return ((), ())
                    }
                    .commit()
                return (item, ())
            }
            .commit()
        _ = workflow.subscribe("root")
        var iterator = innerDone.makeAsyncIterator()
        await iterator.next()
        for _ in 0..<20 { await Task.yield() }
        #expect(runs == ["outer 1": 1, "outer 2": 1, "inner 1": 1, "inner 2:2": 1])
        #expect(workflow.forkCount == 1, "test_workflowDidFork")
        #expect(workflow.completeCount == 1)
    }

    @Test("a forked sequence waits for the subscription, and one that ends empty ends its chain")
    func forkedSequenceWaitsForSubscribe() async {
        let workflow = RecordingWorkflow()
        var ran = false
        let empty: Step<String, String, Int> = elements().fork(workflow)
        empty.onStep { _, _ in
            ran = true
            return ((), ())
        }.commit()
        for _ in 0..<20 { await Task.yield() }
        #expect(workflow.completeCount == 0, "nothing runs before subscribe")
        _ = workflow.subscribe("root")
        await workflow.waitForEvent()
        #expect(!ran)
        #expect(workflow.completeCount == 1)
    }

    @Test(
        "disposeWith(workflow:) is cancelWith(workflow:): bound work stops with the workflow's subscription"
    )
    func cancelWithWorkflow() {
        let workflow = RecordingWorkflow()
        workflow.onStep { item in (item, ()) }.commit()
        let bound = AnyCancellable {}
        bound.cancelWith(workflow: workflow)
        let handle = workflow.subscribe("root")
        #expect(!bound.isCancelled)
        handle.cancel()
        #expect(bound.isCancelled)
        let late = AnyCancellable {}
        late.cancelWith(workflow: workflow)
        #expect(late.isCancelled, "bound after the subscription was cancelled: cancelled at once")
    }

    @Test("a step returning nil ends the chain and completes the workflow")
    func endsEarly() async {
        let workflow = RecordingWorkflow()
        var reached = false
        workflow
            .onStep { _ -> (String, Int)? in nil }
            .onStep { _, _ in
                reached = true
                return ((), ())
            }
            .commit()
        _ = workflow.subscribe("root")
        await workflow.waitForEvent()
        #expect(workflow.completeCount == 1)
        #expect(!reached)
    }

    @Test(
        "test_fork_verifySingleInvocationAtRoot: forks share the root step, which runs once; didFork per fork; didComplete once"
    )
    func forkSharesRoot() async {
        let workflow = RecordingWorkflow()
        var rootRuns = 0
        var leaves: [String] = []
        let root = workflow.onStep { item in
            rootRuns += 1
            return (item, 0)
        }
        root.fork().onStep { _, _ in
            leaves.append("left")
            return ((), ())
        }.commit()
        root.fork().onStep { _, _ in
            leaves.append("right")
            return ((), ())
        }.commit()
        _ = workflow.subscribe("root")
        await workflow.waitForEvent()
        for _ in 0..<20 where leaves.count < 2 { await Task.yield() }
        #expect(rootRuns == 1)
        #expect(Set(leaves) == ["left", "right"])
        #expect(workflow.forkCount == 2)
        #expect(workflow.completeCount == 1)
    }

    @Test("each step waits until its actionable item is active")
    func waitsForActiveItem() async {
        @MainActor final class Item: Interactor, ActionableItem {}
        let item = Item()
        let workflow = Workflow<Item>()
        var ran = false
        let (finished, signal) = AsyncStream<Void>.makeStream()
        workflow.onStep { item in
            ran = true
            signal.yield()
            return (item, ())
        }.commit()
        _ = workflow.subscribe(item)
        for _ in 0..<50 { await Task.yield() }
        #expect(!ran, "the item is inactive, so the step must wait")
        item.activate()
        var iterator = finished.makeAsyncIterator()
        await iterator.next()
        #expect(ran)
    }

    @Test("runs once: a second subscribe, or one before commit, is a programmer error")
    func singleShot() async {
        let uncommitted = RecordingWorkflow()
        _ = uncommitted.onStep { item in (item, 0) }
        let committed = RecordingWorkflow()
        committed.onStep { item in (item, 0) }.commit()
        let errors = capturingProgrammerErrors {
            _ = uncommitted.subscribe("x")
            _ = committed.subscribe("x")
            _ = committed.subscribe("x")
        }
        #expect(
            errors == [
                .workflowNotCommitted(workflow: "RecordingWorkflow"),
                .workflowAlreadyStarted(workflow: "RecordingWorkflow"),
            ])
        await committed.waitForEvent()
        #expect(committed.completeCount == 1)
    }

    @Test("cancelling the handle stops steps still waiting")
    func cancel() async {
        @MainActor final class Item: Interactor, ActionableItem {}
        let item = Item()
        let workflow = RecordingWorkflow()
        _ = workflow  // keeps the type's callbacks around for the assertion below
        let typed = Workflow<Item>()
        var ran = false
        typed.onStep { item in
            ran = true
            return (item, ())
        }.commit()
        let handle = typed.subscribe(item)
        handle.cancel()
        item.activate()
        for _ in 0..<50 { await Task.yield() }
        #expect(!ran)
    }
}
