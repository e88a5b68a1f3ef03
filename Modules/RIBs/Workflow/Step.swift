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
        let next = StepNode { input in
            guard let (item, value) = input as? (ActionableItemType, ValueType) else { return nil }
            guard await waitUntilActive(item) else { return nil }
            return try await onStep(item, value)
        }
        node.add(next)
        return Step<WorkflowActionableItemType, NextActionableItemType, NextValueType>(
            workflow: workflow, node: next)
    }

    /// Returns a branch point: steps added to the result continue from this step's result,
    /// alongside steps added here. Calls ``Workflow/didFork()``.
    public func fork() -> Step<WorkflowActionableItemType, ActionableItemType, ValueType> {
        workflow.fork()
        return Step(workflow: workflow, node: node)
    }

    /// Marks the chain ending at this step as one to run, and returns the workflow.
    @discardableResult
    public func commit() -> Workflow<WorkflowActionableItemType> {
        node.isCommitted = true
        return workflow
    }
}
