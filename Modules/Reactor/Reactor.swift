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
///
///     func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
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
/// reactor.send(.increase)
/// for await state in reactor.state { render(state) }
/// ```
///
/// The pipeline is ReactorKit's: `transform(action:)` → `mutate(action:)` (one sequence per
/// action, run concurrently) → `transform(mutation:)` → `reduce(state:mutation:)` →
/// `transform(state:)` → ``Reactor/currentState`` and ``Reactor/state``. A `mutate` sequence that
/// throws ends only itself: the error goes to ``Reactor/mutationDidFail(_:action:)`` and later
/// actions are handled as usual.
@MainActor
public protocol Reactor: AnyObject {
    /// What the view asks for.
    associatedtype Action: Sendable
    /// A change to apply to the state; the same as `Action` unless declared.
    associatedtype Mutation: Sendable = Action
    /// What the view shows.
    associatedtype State: Sendable

    /// The state before any mutation.
    var initialState: State { get }

    /// Transforms the stream of actions, e.g. to merge in actions from elsewhere. Identity by default.
    func transform(action: AsyncStream<Action>) -> AsyncStream<Action>

    /// The mutations for `action`. By default none, or the action itself when `Action == Mutation`.
    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error>

    /// Transforms the stream of mutations, e.g. to merge in global events. Identity by default.
    func transform(mutation: AsyncStream<Mutation>) -> AsyncStream<Mutation>

    /// Applies `mutation` to `state`. Must be pure. Returns `state` unchanged by default.
    func reduce(state: State, mutation: Mutation) -> State

    /// Transforms the stream of states before they are published. Identity by default.
    func transform(state: AsyncStream<State>) -> AsyncStream<State>

    /// Called when a `mutate` sequence throws. The pipeline goes on. Does nothing by default.
    func mutationDidFail(_ error: any Error, action: Action)
}

extension Reactor {
    /// Returns `action` unchanged.
    public func transform(action: AsyncStream<Action>) -> AsyncStream<Action> { action }

    /// Produces no mutation.
    public func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> { .empty() }

    /// Returns `mutation` unchanged.
    public func transform(mutation: AsyncStream<Mutation>) -> AsyncStream<Mutation> { mutation }

    /// Returns `state` unchanged.
    public func reduce(state: State, mutation: Mutation) -> State { state }

    /// Returns `state` unchanged.
    public func transform(state: AsyncStream<State>) -> AsyncStream<State> { state }

    /// Ignores the error.
    public func mutationDidFail(_ error: any Error, action: Action) {}

    /// The latest published state; ``initialState`` until the first mutation is reduced.
    public var currentState: State { runtime.currentState }

    /// The published states: the current one first, then each new one.
    public var state: SubjectStream<State> { runtime.stateSubject.stream }

    /// Sends `action` into the pipeline (ReactorKit's `reactor.action.onNext(action)`). In stub
    /// mode it is only recorded in ``ReactorStub/actions``.
    public func send(_ action: Action) {
        runtime.send(action, reactor: self)
    }

    /// In stub mode, `mutate` and `reduce` are bypassed: actions are recorded and the state is
    /// set directly through ``stub``. For testing views.
    public var isStubEnabled: Bool {
        get { runtime.stub.isEnabled }
        set { runtime.stub.isEnabled = newValue }
    }

    /// The stub: recorded actions and direct state control. See ``isStubEnabled``.
    public var stub: ReactorStub<Self> { runtime.stub }

    var runtime: ReactorRuntime<Self> { ReactorStorage.runtime(for: self) }
}

extension Reactor where Action == Mutation {
    /// Passes the action through as its own mutation.
    public func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> { .just(action) }
}
