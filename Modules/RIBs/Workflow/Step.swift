/// A step of a ``Workflow``: it holds the actionable item and value its step produced.
@MainActor
public final class Step<WorkflowActionableItemType, ActionableItemType, ValueType> {
    private let workflow: Workflow<WorkflowActionableItemType>
    let node: StepNode

    init(workflow: Workflow<WorkflowActionableItemType>, node: StepNode) {
        self.workflow = workflow
        self.node = node
    }

    /// Adds a step that runs with this step's item and value, once the item is active.
    ///
    /// - Parameter onStep: Returns the next item and value, or `nil` to end the chain here.
    public func onStep<NextActionableItemType, NextValueType>(
        _ onStep:
            @escaping @MainActor (ActionableItemType, ValueType) async throws -> (
                NextActionableItemType, NextValueType
            )?
    ) -> Step<WorkflowActionableItemType, NextActionableItemType, NextValueType> {
        let next = StepNode(parent: node) { input in
            guard let (item, value) = input as? (ActionableItemType, ValueType) else { return nil }
            guard await waitUntilActive(item) else { return nil }
            return try await onStep(item, value)
        }
        node.add(next)
        return Step<WorkflowActionableItemType, NextActionableItemType, NextValueType>(
            workflow: workflow, node: next)
    }

    /// Calls `onError` when this step, or one before it in the chain, throws: once for each
    /// committed chain through this step, as in RIBs-iOS. The workflow's
    /// ``Workflow/didReceiveError(_:)`` is still called.
    ///
    /// - Returns: This step, to go on with.
    @discardableResult
    public func onError(_ onError: @escaping @MainActor (any Error) -> Void) -> Self {
        node.errorHandlers.append(onError)
        return self
    }

    /// Returns a branch point: steps added to the result continue from this step's result,
    /// alongside steps added here. Calls ``Workflow/didFork()``. This is RIBs-iOS's
    /// `step.asObservable().fork(workflow)`.
    public func fork() -> Step<WorkflowActionableItemType, ActionableItemType, ValueType> {
        workflow.fork()
        return Step(workflow: workflow, node: node)
    }

    /// Marks the chain ending at this step as one to run, and returns the workflow. A chain
    /// committed while the workflow runs starts as soon as the step it continues from has run.
    @discardableResult
    public func commit() -> Workflow<WorkflowActionableItemType> {
        node.isCommitted = true
        workflow.didCommit(node)
        return workflow
    }
}

extension AsyncSequence {
    /// Starts a chain of `workflow` from this sequence's first `(item, value)` pair, as RIBs-iOS
    /// forks an observable into a workflow. Calls ``Workflow/didFork()``.
    ///
    /// The sequence is iterated once the workflow is subscribed (or at once, when the chain is
    /// committed while the workflow runs); a sequence that ends without an element ends the
    /// chain, and one that throws reports the error as a throwing step does.
    @MainActor
    public func fork<WorkflowActionableItemType, ActionableItemType, ValueType>(
        _ workflow: Workflow<WorkflowActionableItemType>
    ) -> Step<WorkflowActionableItemType, ActionableItemType, ValueType>
    where Element == (ActionableItemType, ValueType) {
        let source = StepNode(parent: workflow.root) { _ in
            for try await element in self { return element }
            return nil
        }
        workflow.root.add(source)
        workflow.fork()
        return Step(workflow: workflow, node: source)
    }
}

extension Cancellable {
    /// Cancels this when `workflow`'s subscription is cancelled, or at once if it already was.
    ///
    /// This is RIBs-iOS's `disposeWith(workflow:)`: work a step starts may then keep the
    /// workflow alive, since cancelling the subscription releases it.
    ///
    /// - Returns: `self`, to keep in a variable if it is also cancelled elsewhere.
    @MainActor
    @discardableResult
    public func cancelWith<ActionableItemType>(workflow: Workflow<ActionableItemType>) -> Self {
        workflow.bag.insert(self)
        return self
    }
}
