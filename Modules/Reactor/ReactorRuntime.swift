import RIBs

/// A reactor's state, its subscribers and the actions waiting their turn; each ``Reactor``
/// stores one (`let runtime = ReactorRuntime<MyReactor>()`) and reaches it through the
/// protocol's extension, never directly.
///
/// Queued actions are handled by one task, which exists only while there is work; it holds the
/// reactor weakly, so a reactor that goes away with actions queued cancels the one in progress,
/// whose ``SentAction`` returns once its work has returned, and lets every waiting one return.
@MainActor
public final class ReactorRuntime<R: Reactor> {
    private var latestState: R.State?
    private var subject: StreamSubject<R.State>?
    /// The actions sent and not yet handled are `queue[next...]`.
    private var queue: [Turn] = []
    private var next = 0
    private var worker: Task<Void, Never>?
    lazy var stub = ReactorStub<R> { [unowned self] state in self.publish(state) }

    /// A runtime for a reactor that has not started: its state is the reactor's
    /// `initialState` until the first mutation.
    public nonisolated init() {}

    isolated deinit {
        worker?.cancel()
        for waiting in queue[next...] { waiting.sent.markReduced() }
        subject?.finish()
    }

    func currentState(of reactor: R) -> R.State {
        latestState ?? reactor.initialState
    }

    func states(of reactor: R) -> SubjectStream<R.State> {
        if let subject { return subject.stream }
        let subject = StreamSubject(replaying: currentState(of: reactor))
        self.subject = subject
        return subject.stream
    }

    func send(_ action: R.Action, to reactor: R) -> SentAction {
        let sent = SentAction()
        let groups = SentActions.record(sent)
        if stub.isEnabled {
            stub.record(action)
            sent.markReduced()
            return sent
        }
        queue.append(Turn(action: action, sent: sent, groups: groups))
        if worker == nil { startWorker(for: reactor) }
        return sent
    }

    private func publish(_ state: R.State) {
        latestState = state
        subject?.send(state)
    }

    /// The next action to handle, or `nil` (and no worker any more) when there is none.
    private func dequeue() -> Turn? {
        guard next < queue.count else {
            queue.removeAll(keepingCapacity: true)
            next = 0
            worker = nil
            return nil
        }
        if next >= 64, next * 2 >= queue.count {
            // A queue that never drains would otherwise keep every handled action.
            queue.removeFirst(next)
            next = 0
        }
        defer { next += 1 }
        return queue[next]
    }

    private func startWorker(for reactor: R) {
        let runtime = Weak(self)
        let reactor = Weak(reactor)
        worker = Task {
            // The worker outlives the call that started it: actions its work sends belong to
            // no caller's group, except those a published state sets going (see `apply`).
            await SentActions.outsideAnyGroup {
                while let turn = runtime.object?.dequeue() {
                    await Self.handle(turn, runtime: runtime, reactor: reactor)
                    turn.sent.markReduced()
                }
            }
        }
    }

    /// Runs `action`'s mutations through `reduce`, each as it is sent. Holds neither the runtime
    /// nor the reactor while the work awaits, so either may go away meanwhile; a mutation sent
    /// after that is dropped.
    private static func handle(_ turn: Turn, runtime: Weak<ReactorRuntime>, reactor: Weak<R>) async {
        let action = turn.action
        guard let mutations = reactor.object?.mutate(action: action) else { return }
        func reduce(_ mutation: R.Mutation) {
            guard let runtime = runtime.object, let reactor = reactor.object else { return }
            runtime.apply(mutation, of: reactor, for: turn)
        }
        switch mutations.source {
        case .now(let list):
            for mutation in list { reduce(mutation) }
        case .work(let work):
            do {
                try await work(reduce)
            } catch {
                reactor.object?.mutationDidFail(error, action: action)
            }
        }
    }

    /// Reduces and publishes `mutation`. What the new state sets going at once (a sink that
    /// selects a tab, a screen that appears and asks for its data) is part of the work of the
    /// action that changed the state: it joins that action's groups, so that awaiting a command
    /// awaits everything the command led to, not only its first step.
    private func apply(_ mutation: R.Mutation, of reactor: R, for turn: Turn) {
        let state = reactor.reduce(state: currentState(of: reactor), mutation: mutation)
        guard !stub.isEnabled else { return }
        SentActions.joining(turn.groups) { publish(state) }
    }

    /// An action waiting its turn, with the groups it was sent in.
    private struct Turn {
        let action: R.Action
        let sent: SentAction
        let groups: SentActions?
    }
}

/// A reference that does not keep its object alive.
private struct Weak<Object: AnyObject & Sendable>: Sendable {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
