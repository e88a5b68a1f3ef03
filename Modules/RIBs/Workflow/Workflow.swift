/// A deep link or other multi-step flow through the RIB tree, run once from a root item.
///
/// ```swift
/// final class AddTodoWorkflow: Workflow<RootActionableItem> {
///     init(title: String) {
///         super.init()
///         onStep { root in await root.showTodoTab() }
///             .onStep { todo, _ in await todo.startAddingTodo(title: title) }
///             .commit()
///     }
/// }
///
/// AddTodoWorkflow(title: "Walk the dog")
///     .subscribe(rootInteractor)
///     .cancelOnDeactivate(interactor: rootInteractor)
/// ```
///
/// Each step returns the next actionable item and a value, or `nil` to end its chain early.
/// Steps that share a parent share its result: a parent step runs once however many chains
/// continue from it. A chain may also start from any async sequence of `(item, value)` pairs
/// (``_Concurrency/AsyncSequence/fork(_:)``), as RIBs-iOS forks an observable.
///
/// The callbacks follow RIBs-iOS: ``didComplete()`` at most once, when the first committed chain
/// completes; ``didFork()`` for every fork; and ``didReceiveError(_:)`` once for each committed
/// chain through a step that throws, as each committed Rx chain is its own subscription there.
@MainActor
open class Workflow<ActionableItemType> {
    let root = StepNode(parent: nil) { input in input }
    /// Everything running for this workflow, and what ``Cancellable/cancelWith(workflow:)``
    /// adds; cancelled together by the handle ``subscribe(_:)`` returns.
    let bag = CancelBag()
    private var hasStarted = false
    private var hasCompleted = false

    /// Creates a workflow with no steps.
    public init() {}

    /// Called once, when the first committed chain has run to its end (or a step ended it early).
    open func didComplete() {}

    /// Called for each fork: ``Step/fork()`` and ``_Concurrency/AsyncSequence/fork(_:)``.
    open func didFork() {}

    /// Called when a step throws, once for each committed chain through that step; those chains
    /// stop there.
    open func didReceiveError(_ error: any Error) {}

    /// Adds the first step: it runs with the root actionable item once that item is active.
    public final func onStep<NextActionableItemType, NextValueType>(
        _ onStep:
            @escaping @MainActor (ActionableItemType) async throws -> (
                NextActionableItemType, NextValueType
            )?
    ) -> Step<ActionableItemType, NextActionableItemType, NextValueType> {
        let node = StepNode(parent: root) { input in
            guard let item = input as? ActionableItemType else { return nil }
            guard await waitUntilActive(item) else { return nil }
            return try await onStep(item)
        }
        root.add(node)
        return Step(workflow: self, node: node)
    }

    /// Runs the committed chains from `actionableItem`. A workflow runs once.
    ///
    /// Subscribing before any ``Step/commit()``, or a second time, is a ``ProgrammerError``;
    /// nothing runs and the handle does nothing.
    ///
    /// - Returns: A handle that cancels every running step, and whatever was bound to the
    ///   workflow with ``Cancellable/cancelWith(workflow:)``.
    public final func subscribe(_ actionableItem: ActionableItemType) -> any Cancellable {
        guard root.leadsToCommit else {
            RIBsDiagnostics.report(.workflowNotCommitted(workflow: typeName(of: self)))
            return AnyCancellable {}
        }
        guard !hasStarted else {
            RIBsDiagnostics.report(.workflowAlreadyStarted(workflow: typeName(of: self)))
            return AnyCancellable {}
        }
        hasStarted = true
        run(root, input: actionableItem)
        return bag
    }

    func fork() {
        didFork()
    }

    /// Starts a chain committed after the workflow started: from the first of its steps that
    /// has not run, once the step before it has its result.
    func didCommit(_ node: StepNode) {
        guard hasStarted else { return }
        var path: [StepNode] = []
        var current: StepNode? = node
        while let step = current {
            path.append(step)
            current = step.parent
        }
        for step in path.reversed() {
            guard case .finished(let output) = step.progress else { continue }
            for child in step.children where child.leadsToCommit && child.progress.isIdle {
                run(child, input: output)
            }
        }
    }

    private func run(_ node: StepNode, input: Any) {
        node.progress = .running
        let task = Task { @MainActor in
            do {
                guard let output = try await node.body(input), !Task.isCancelled else {
                    node.progress = .ended
                    if !Task.isCancelled { completeIfNotYet() }
                    return
                }
                node.progress = .finished(output)
                if node.isCommitted { completeIfNotYet() }
                for child in node.children where child.leadsToCommit && child.progress.isIdle {
                    run(child, input: output)
                }
            } catch is CancellationError {
                node.progress = .ended
            } catch {
                node.progress = .ended
                report(error, thrownBy: node)
            }
        }
        bag.insert(task)
    }

    /// Reports `error` once for each committed chain through `node`, each time to the chain's
    /// ``Step/onError(_:)`` handlers from `node` down, then to ``didReceiveError(_:)``.
    private func report(_ error: any Error, thrownBy node: StepNode) {
        for chain in node.committedChains() {
            for step in chain {
                for handler in step.errorHandlers { handler(error) }
            }
            didReceiveError(error)
        }
    }

    private func completeIfNotYet() {
        guard !hasCompleted else { return }
        hasCompleted = true
        didComplete()
    }
}

/// Waits until `item`, if it is an interactor scope, is active. Returns false if it went away
/// first.
@MainActor
func waitUntilActive(_ item: Any) async -> Bool {
    guard let scope = item as? any InteractorScope else { return true }
    if scope.isActive { return true }
    for await isActive in scope.isActiveStream where isActive { return true }
    return false
}

/// One node of a workflow's step tree. Values are type-erased here; ``Step`` keeps them typed.
@MainActor
final class StepNode {
    /// Where a step is in its one run.
    enum Progress {
        case idle, running, ended
        /// Ran, and its result is what the steps after it start from.
        case finished(Any)

        var isIdle: Bool {
            if case .idle = self { true } else { false }
        }
    }

    let body: @MainActor (Any) async throws -> Any?
    private(set) weak var parent: StepNode?
    private(set) var children: [StepNode] = []
    var isCommitted = false
    var progress = Progress.idle
    var errorHandlers: [@MainActor (any Error) -> Void] = []

    init(parent: StepNode?, body: @escaping @MainActor (Any) async throws -> Any?) {
        self.parent = parent
        self.body = body
    }

    func add(_ child: StepNode) {
        children.append(child)
    }

    /// True when this node is committed or leads to a committed node; others never run, as an
    /// unsubscribed Rx chain never runs.
    var leadsToCommit: Bool {
        isCommitted || children.contains { $0.leadsToCommit }
    }

    /// Each committed chain through this node, as the steps from this node to its commit.
    func committedChains() -> [[StepNode]] {
        var chains: [[StepNode]] = isCommitted ? [[self]] : []
        for child in children {
            chains += child.committedChains().map { [self] + $0 }
        }
        return chains
    }
}
