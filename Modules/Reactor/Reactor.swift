import RIBs

/// A screen's state machine, as in ReactorKit: actions come in, `mutate` turns each into
/// mutations (possibly asynchronously), and the pure `reduce` folds mutations into a new state.
///
/// ```swift
/// final class CounterReactor: Reactor {
///     enum Action { case increase }
///     enum Mutation { case add(Int) }
///     struct State { var count = 0 }
///
///     let initialState = State()
///     let runtime = ReactorRuntime<CounterReactor>()
///
///     func mutate(action: Action) -> Mutations<Mutation> {
///         .just(.add(1))
///     }
///
///     func reduce(state: State, mutation: Mutation) -> State {
///         var state = state
///         if case .add(let amount) = mutation { state.count += amount }
///         return state
///     }
/// }
///
/// reactor.state.sink { render($0) }
/// await reactor.send(.increase).reduced()
/// ```
///
/// Actions are handled one at a time, in the order they were sent: an action's `mutate` starts
/// once every mutation of the action before it has been reduced. So `mutate` always sees the
/// state its action was sent into, and a slow action's late result can never overwrite the
/// state a later action made. (ReactorKit merges the actions' sequences instead, so its actions
/// may interleave.) ``send(_:)`` returns a ``SentAction`` to await that moment.
///
/// A `mutate` whose work throws ends only its own action: the error goes to
/// ``mutationDidFail(_:action:)`` and the next action is handled as usual.
@MainActor
public protocol Reactor: AnyObject, Sendable {
    /// What the view asks for.
    associatedtype Action: Sendable
    /// A change to apply to the state; the same as `Action` unless declared.
    associatedtype Mutation: Sendable = Action
    /// What the view shows.
    associatedtype State: Sendable

    /// The state before any mutation.
    var initialState: State { get }

    /// Where the reactor keeps its state and the actions waiting their turn. Declare it as a
    /// stored property, `let runtime = ReactorRuntime<MyReactor>()`: a protocol cannot add
    /// storage, and ReactorKit's side table of associated objects has no Swift equivalent.
    var runtime: ReactorRuntime<Self> { get }

    /// The mutations for `action`. By default none, or the action itself when `Action == Mutation`.
    func mutate(action: Action) -> Mutations<Mutation>

    /// Applies `mutation` to `state`. Must be pure. Returns `state` unchanged by default.
    func reduce(state: State, mutation: Mutation) -> State

    /// Called when the work of a `mutate` throws; the next action is handled as usual. Does nothing
    /// by default.
    func mutationDidFail(_ error: any Error, action: Action)
}

extension Reactor {
    /// Produces no mutation.
    public func mutate(action: Action) -> Mutations<Mutation> { .empty() }

    /// Returns `state` unchanged.
    public func reduce(state: State, mutation: Mutation) -> State { state }

    /// Ignores the error.
    public func mutationDidFail(_ error: any Error, action: Action) {}

    /// The latest state; ``initialState`` until the first mutation is reduced.
    public var currentState: State { runtime.currentState(of: self) }

    /// The states: the current one first, then each new one. A
    /// ``RIBs/SubjectStream/sink(receiveValue:receiveCompletion:)`` hears each state before
    /// the ``SentAction`` that made it counts as reduced.
    public var state: SubjectStream<State> { runtime.states(of: self) }

    /// Sends `action` to be handled after the actions sent before it (ReactorKit's
    /// `reactor.action.onNext(action)`). In stub mode it is only recorded in
    /// ``ReactorStub/actions``.
    ///
    /// - Returns: The action on its way; `await` its ``SentAction/reduced()`` to know when its
    ///   mutations have been reduced.
    @discardableResult
    public func send(_ action: Action) -> SentAction {
        runtime.send(action, to: self)
    }

    /// In stub mode, `mutate` and `reduce` are bypassed: actions are recorded and the state is
    /// set directly through ``stub``. For testing views.
    public var isStubEnabled: Bool {
        get { runtime.stub.isEnabled }
        set { runtime.stub.isEnabled = newValue }
    }

    /// The recorded actions and direct control of the state; see ``isStubEnabled``.
    public var stub: ReactorStub<Self> { runtime.stub }
}

extension Reactor where Action == Mutation {
    /// Passes the action through as its own mutation.
    public func mutate(action: Action) -> Mutations<Mutation> { .just(action) }
}
