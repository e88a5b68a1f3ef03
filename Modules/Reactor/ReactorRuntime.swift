import RIBs

/// The storage and pipeline of one reactor. A protocol cannot add stored properties, so, as
/// ReactorKit does with its weak map table, each reactor's runtime lives in a side table.
@MainActor
final class ReactorRuntime<R: Reactor> {
    let stateSubject: StreamSubject<R.State>
    private(set) var currentState: R.State
    lazy var stub = ReactorStub<R> { [unowned self] state in self.publish(state) }

    private var actionInput: AsyncStream<R.Action>.Continuation?
    private var tasks: [Task<Void, Never>] = []

    init(initialState: R.State) {
        currentState = initialState
        stateSubject = StreamSubject(replaying: initialState)
    }

    func send(_ action: R.Action, reactor: R) {
        if stub.isEnabled {
            stub.record(action)
            return
        }
        if actionInput == nil { startPipeline(for: reactor) }
        actionInput?.yield(action)
    }

    /// Ends the pipeline; called when the reactor is gone.
    func shutDown() {
        actionInput?.finish()
        for task in tasks { task.cancel() }
        tasks.removeAll()
        stateSubject.finish()
    }

    private func publish(_ state: R.State) {
        currentState = state
        stateSubject.send(state)
    }

    private func startPipeline(for reactor: R) {
        let (actions, actionInput) = AsyncStream<R.Action>.makeStream()
        let (mutations, mutationInput) = AsyncStream<R.Mutation>.makeStream()
        let (states, stateInput) = AsyncStream<R.State>.makeStream()
        self.actionInput = actionInput

        let transformedActions = reactor.transform(action: actions)
        let transformedMutations = reactor.transform(mutation: mutations)
        let transformedStates = reactor.transform(state: states)
        let initialState = currentState

        // Actions → mutations. Each action's sequence runs in its own task, as flatMap merges.
        tasks.append(
            Task { [weak reactor] in
                for await action in transformedActions {
                    guard let reactor else { break }
                    let sequence = reactor.mutate(action: action)
                    Task { [weak reactor] in
                        do {
                            for try await mutation in sequence { mutationInput.yield(mutation) }
                        } catch {
                            reactor?.mutationDidFail(error, action: action)
                        }
                    }
                }
                mutationInput.finish()
            })

        // Mutations → states, folded with reduce from the initial state.
        tasks.append(
            Task { [weak reactor] in
                var state = initialState
                for await mutation in transformedMutations {
                    guard let reactor else { break }
                    state = reactor.reduce(state: state, mutation: mutation)
                    stateInput.yield(state)
                }
                stateInput.finish()
            })

        // States → currentState and the published stream.
        tasks.append(
            Task { [weak self] in
                for await state in transformedStates {
                    guard let self else { break }
                    if self.stub.isEnabled { continue }
                    self.publish(state)
                }
            })
    }
}

/// The side table of reactor runtimes, keyed by reactor identity.
@MainActor
enum ReactorStorage {
    private struct Entry {
        weak var owner: AnyObject?
        let runtime: AnyObject
        let shutDown: @MainActor () -> Void
    }

    private static var entries: [ObjectIdentifier: Entry] = [:]
    private static var pruneThreshold = 64

    static func runtime<R: Reactor>(for reactor: R) -> ReactorRuntime<R> {
        let key = ObjectIdentifier(reactor)
        if let entry = entries[key], entry.owner === reactor,
            let runtime = entry.runtime as? ReactorRuntime<R>
        {
            return runtime
        }
        // Either new, or a dead reactor's entry whose address was reused.
        entries[key]?.shutDown()
        let runtime = ReactorRuntime<R>(initialState: reactor.initialState)
        entries[key] = Entry(owner: reactor, runtime: runtime, shutDown: { runtime.shutDown() })
        if entries.count >= pruneThreshold { pruneDeadReactors() }
        return runtime
    }

    /// Shuts down and drops the runtimes of reactors that are gone. Amortised: runs when the
    /// table has doubled since the last prune.
    private static func pruneDeadReactors() {
        for (key, entry) in entries where entry.owner == nil {
            entry.shutDown()
            entries.removeValue(forKey: key)
        }
        pruneThreshold = max(64, entries.count * 2)
    }

    /// The number of runtimes held, live or not yet pruned; for tests.
    static var count: Int { entries.count }
}
