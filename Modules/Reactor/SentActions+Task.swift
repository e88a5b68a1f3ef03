extension SentActions {
    /// Starts `work` in a main-actor task of its own that counts, in the groups gathering now,
    /// as one more action: a command that sets it going awaits it (``reduced()``), while every
    /// reactor's queue goes on. For work whose owner may cancel it and that must not hold a
    /// reactor's turn meanwhile, such as a request an interactor starts and a newer one
    /// replaces; the work sends actions with what it got.
    ///
    /// ```swift
    /// fetch?.cancel()
    /// fetch = SentActions.task { [photos, reactor] in
    ///     let photo = await photos.next()
    ///     guard !Task.isCancelled else { return }
    ///     reactor.send(.show(photo))
    /// }
    /// ```
    ///
    /// It counts as reduced once `work` returns or once the task is cancelled, whichever comes
    /// first: no one waits for work its owner gave up. Actions `work` sends join the same groups
    /// (the task inherits them), so awaiting the command awaits them too. A group's
    /// ``cancelTasks()`` cancels it as its owner would.
    ///
    /// - Returns: The task, to cancel.
    @discardableResult
    public static func task(_ work: @escaping @MainActor @Sendable () async -> Void) -> Task<Void, Never> {
        let sent = SentAction()
        _ = record(sent)
        let task = Task { @MainActor in
            await withTaskCancellationHandler {
                await work()
            } onCancel: {
                // The handler runs in the canceller's context, which may be off the main actor.
                Task { @MainActor in sent.markReduced() }
            }
            sent.markReduced()
        }
        record(task, for: sent)
        return task
    }
}
