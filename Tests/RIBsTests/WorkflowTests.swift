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

struct StepFailure: Error, CustomStringConvertible {
    var description: String { "step failed" }
}

@MainActor
@Suite("Workflow", .recordingLeakDetector)
struct WorkflowTests {
    @Test("runs each step once, in order, passing items and values along")
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

    @Test("a throwing step goes to didReceiveError and stops its chain")
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

    @Test("forks share the root step, which runs once; didFork per fork; didComplete once")
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
