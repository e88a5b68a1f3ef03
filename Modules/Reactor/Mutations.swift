/// The mutations one action makes, in order: what ``Reactor/mutate(action:)`` returns, as
/// ReactorKit's `mutate` returns an `Observable<Mutation>`.
///
/// ```swift
/// func mutate(action: Action) -> Mutations<Mutation> {
///     switch action {
///     case .increase:
///         return .just(.add(1))
///     case .refresh:
///         return .run { send in
///             send(.setLoading(true))
///             send(.setItems(try await repository.items()))
///             send(.setLoading(false))
///         }
///     }
/// }
/// ```
///
/// The work of ``run(_:)`` runs on the main actor, in the task that handles the reactor's
/// actions, and each `send` reduces its mutation then and there. Its awaits go wherever their
/// callees go (a repository's disk, the network), and come back to the main actor once, with
/// no stream or task of their own in between: a save that ends in a frame wakes as few threads
/// as the save itself needs. (A stream fed by a task, as the first version returned, cost every
/// such action a task start and, per mutation, a stop on the cooperative pool.)
///
/// Because the work is the reactor's own turn:
/// - the next action waits until it returns. A source that never ends, such as a sequence of
///   server events, belongs in a task the interactor owns, which sends an action per event; so
///   does a request that may take seconds or be replaced, started with
///   ``SentActions/task(_:)`` so that the command that asked for it still awaits it;
/// - it must not await the ``SentAction/reduced()`` of an action sent after it, which waits
///   for it;
/// - heavy synchronous work (decoding, parsing) belongs in a `@concurrent` function it awaits,
///   or it holds the main actor.
///
/// Test a reactor through what it does: `await reactor.send(action).reduced()`, then its
/// `currentState`; or with ``Reactor/isStubEnabled`` for the view.
public struct Mutations<Mutation: Sendable>: Sendable {
    /// The work that sends the mutations; it has ended once it returns.
    public typealias Work = @MainActor @Sendable (_ send: (Mutation) -> Void) async throws -> Void

    enum Source: Sendable {
        case now([Mutation])
        case work(Work)
    }

    let source: Source

    /// `mutations`, reduced at once, in order. ReactorKit's `.just`.
    public static func just(_ mutations: Mutation...) -> Self {
        Mutations(source: .now(mutations))
    }

    /// No mutation. ReactorKit's `.empty()`.
    public static func empty() -> Self {
        Mutations(source: .now([]))
    }

    /// The mutations `work` sends as it goes, e.g. one before a network call and one after.
    /// The next action waits until `work` returns; a thrown error ends only this action's
    /// mutations and reaches ``Reactor/mutationDidFail(_:action:)``.
    public static func run(_ work: @escaping Work) -> Self {
        Mutations(source: .work(work))
    }
}
