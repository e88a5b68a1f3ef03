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
/// continue from it. The callbacks follow RIBs-iOS: ``didComplete()`` at most once, when the
/// first committed chain completes; ``didFork()`` for every ``Step/fork()``; and
/// ``didReceiveError(_:)`` for a step that throws.
@MainActor
open class Workflow<ActionableItemType> {
    let root = StepNode { input in input }
    private var hasStarted = false
    private var hasCompleted = false

    /// Creates a workflow with no steps.
    public init() {}

    /// Called once, when the first committed chain has run to its end (or a step ended it early).
    open func didComplete() {}

    /// Called for each ``Step/fork()``.
    open func didFork() {}

    /// Called when a step throws; the chain through that step stops.
    open func didReceiveError(_ error: any Error) {}

    /// Adds the first step: it runs with the root actionable item once that item is active.
    public final func onStep<NextActionableItemType, NextValueType>(
        _ onStep:
            @escaping @MainActor (ActionableItemType) async throws -> (
                NextActionableItemType, NextValueType
            )?
    ) -> Step<ActionableItemType, NextActionableItemType, NextValueType> {
        let node = StepNode { input in
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
    /// - Returns: A handle that cancels every running step.
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
        let bag = CancelBag()
        run(root, input: actionableItem, bag: bag)
        return bag
    }

    func fork() {
        didFork()
    }

    private func run(_ node: StepNode, input: Any, bag: CancelBag) {
        let task = Task { @MainActor in
            do {
                guard let output = try await node.body(input), !Task.isCancelled else {
                    if !Task.isCancelled { completeIfNotYet() }
                    return
                }
                if node.isCommitted { completeIfNotYet() }
                for child in node.children where child.leadsToCommit {
                    run(child, input: output, bag: bag)
                }
            } catch is CancellationError {
                return
            } catch {
                didReceiveError(error)
            }
        }
        bag.insert(task)
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
    let body: @MainActor (Any) async throws -> Any?
    private(set) var children: [StepNode] = []
    var isCommitted = false

    init(body: @escaping @MainActor (Any) async throws -> Any?) {
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
}
