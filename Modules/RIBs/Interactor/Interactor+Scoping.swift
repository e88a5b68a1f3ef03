extension Cancellable {
    /// Cancels this when `interactor` deactivates, or at once if it is inactive now.
    ///
    /// This is RIBs-iOS's `disposeOnDeactivate(interactor:)`.
    ///
    /// - Returns: `self`, to keep in a variable if it is also cancelled elsewhere.
    @MainActor
    @discardableResult
    public func cancelOnDeactivate(interactor: Interactor) -> Self {
        if !interactor.bindToActiveScope(self) {
            printToStandardError(
                "RIBs: work bound to \(typeName(of: interactor)) was cancelled at once, since it is inactive."
            )
        }
        return self
    }
}

extension Interactor {
    /// Starts a main-actor task bound to the active scope: it is cancelled on deactivation, or at
    /// once if the interactor is inactive.
    ///
    /// - Parameter operation: The work. It should check for cancellation (`for await` loops do).
    /// - Returns: The task, already bound.
    @discardableResult
    public final func task(
        priority: TaskPriority? = nil,
        _ operation: @escaping @MainActor @Sendable () async -> Void
    ) -> Task<Void, Never> {
        let task = Task(priority: priority) { @MainActor in await operation() }
        task.cancelOnDeactivate(interactor: self)
        return task
    }
}
