/// An action sent to a ``Reactor``, on its way to the state.
///
/// ```swift
/// await reactor.send(.refresh).reduced()
/// #expect(reactor.currentState.photo != nil)
/// ```
@MainActor
public final class SentAction {
    /// Whether ``reduced()`` would return at once.
    public private(set) var isReduced = false
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0

    init() {}

    /// Returns once the action's mutations have all been reduced and published: when the work
    /// its `mutate` returned has returned or thrown. It returns at once for an action recorded in stub
    /// mode, and when the reactor is gone before the action's turn came.
    ///
    /// A task cancelled while it waits returns at once, before the action is reduced (check
    /// ``isReduced``), so that a wait raced against a time limit in a task group can lose.
    public func reduced() async {
        guard !isReduced else { return }
        let waiter = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[waiter] = continuation
                }
            }
        } onCancel: {
            Task { @MainActor in self.stopWaiting(waiter) }
        }
    }

    func markReduced() {
        guard !isReduced else { return }
        isReduced = true
        let resumed = waiters.values
        waiters = [:]
        for waiter in resumed { waiter.resume() }
    }

    private func stopWaiting(_ waiter: Int) {
        waiters.removeValue(forKey: waiter)?.resume()
    }
}

/// The actions sent to any reactor while a piece of code ran, to await together: the work a
/// command or a launch set going, however deep in the RIB tree the reactors that got it are.
///
/// ```swift
/// let sent = SentActions.during { window.perform(command) }
/// await sent.reduced()
/// draw()
/// ```
///
/// The group is found through a task-local value, so nothing has to be passed down to the
/// reactors. An action sent while a state is published (a sink reacting to it, a screen that
/// appears because of it) belongs to the groups of the action whose mutation it was; one sent
/// from the work a `mutate` returns, while that work runs, belongs to no group.
@MainActor
public final class SentActions {
    @TaskLocal private static var current: SentActions?

    /// The actions not known to be reduced yet: reduced ones are dropped as the list grows, so
    /// a group that lasts a whole session keeps only the work still on its way.
    private var actions: [SentAction] = []
    /// The work ``task(_:)`` started in this group, with the action that stands for it, until
    /// it is reduced.
    private var tasks: [(action: SentAction, task: Task<Void, Never>)] = []
    private var sent = 0
    private var pruneAt = 256
    private let enclosing: SentActions?

    private init(enclosing: SentActions?) {
        self.enclosing = enclosing
    }

    /// Runs `body` and returns the actions sent while it ran, by it or by anything it called.
    /// Groups nest: an action also belongs to every enclosing group.
    public static func during(_ body: () throws -> Void) rethrows -> SentActions {
        let group = SentActions(enclosing: current)
        try $current.withValue(group) { try body() }
        return group
    }

    /// ``during(_:)`` for a `body` that suspends, such as a run loop: the actions sent in its task
    /// while it ran, which a program awaits before it ends so that no change is cut short.
    public static func throughout(_ body: () async throws -> Void) async rethrows -> SentActions {
        let group = SentActions(enclosing: current)
        try await $current.withValue(group) { try await body() }
        return group
    }

    /// How many actions were sent.
    public var count: Int { sent }

    /// Whether every action has been reduced; true for an empty group.
    public var isReduced: Bool { actions.allSatisfy(\.isReduced) }

    /// Returns once every action has been reduced (see ``SentAction/reduced()``), including those
    /// their states set going meanwhile, or once the task is cancelled.
    public func reduced() async {
        // Actions join while earlier ones are awaited: the list is read again after each wait.
        while !Task.isCancelled {
            actions.removeAll(where: \.isReduced)
            guard let pending = actions.first else { return }
            await pending.reduced()
        }
    }

    /// Adds `action` to the current group and those enclosing it; returns the current group.
    static func record(_ action: SentAction) -> SentActions? {
        var group = current
        while let member = group {
            member.append(action)
            group = member.enclosing
        }
        return current
    }

    /// Adds `task`, which `action` stands for, to the current group and those enclosing it, so
    /// that ``cancelTasks()`` finds it.
    static func record(_ task: Task<Void, Never>, for action: SentAction) {
        var group = current
        while let member = group {
            member.tasks.removeAll { $0.action.isReduced }
            member.tasks.append((action, task))
            group = member.enclosing
        }
    }

    /// Cancels the work that ``task(_:)`` started in this group and that is still on its way:
    /// each counts as reduced then. The actions stay, to be awaited.
    ///
    /// For a program that ends: a request no one will see the answer to (a photo) is given up
    /// on, while a change on its way to the disk is still awaited.
    public func cancelTasks() {
        for (action, task) in tasks where !action.isReduced { task.cancel() }
        tasks = []
    }

    /// Runs `body` with `group` as the current group, as if it ran inside the `during` that made it.
    static func joining(_ group: SentActions?, _ body: () -> Void) {
        $current.withValue(group) { body() }
    }

    private func append(_ action: SentAction) {
        sent += 1
        actions.append(action)
        if actions.count >= pruneAt {
            actions.removeAll(where: \.isReduced)
            pruneAt = max(256, actions.count * 2)
        }
    }

    static func outsideAnyGroup(_ work: () async -> Void) async {
        await $current.withValue(nil) { await work() }
    }
}
