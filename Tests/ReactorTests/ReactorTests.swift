import RIBs
import Reactor
import Testing

func nextValue<I: AsyncIteratorProtocol>(
    _ iterator: inout I, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> I.Element where I.Element: Sendable {
    let value = try await iterator.next()
    return try #require(value, "the stream ended before sending a value", sourceLocation: sourceLocation)
}

struct Boom: Error {}

@MainActor
final class CounterReactor: Reactor {
    enum Action: Sendable, Equatable {
        case increase
        case fail
        case loadSlowly(Int)
    }

    enum Mutation: Sendable, Equatable {
        case add(Int)
        case setLoading(Bool)
    }

    struct State: Sendable, Equatable {
        var count = 0
        var isLoading = false
    }

    let initialState = State()
    var calls: [String] = []
    var failures: [Action] = []

    func transform(action: AsyncStream<Action>) -> AsyncStream<Action> {
        calls.append("transform(action:)")
        return action
    }

    func mutate(action: Action) -> AsyncThrowingStream<Mutation, any Error> {
        calls.append("mutate(\(action))")
        switch action {
        case .increase:
            return .just(.add(1))
        case .fail:
            return .run { send in
                send(.setLoading(true))
                throw Boom()
            }
        case .loadSlowly(let amount):
            return .run { send in
                send(.setLoading(true))
                try await Task.sleep(for: .milliseconds(20))
                send(.add(amount))
                send(.setLoading(false))
            }
        }
    }

    func transform(mutation: AsyncStream<Mutation>) -> AsyncStream<Mutation> {
        calls.append("transform(mutation:)")
        return mutation
    }

    func reduce(state: State, mutation: Mutation) -> State {
        calls.append("reduce(\(mutation))")
        var state = state
        switch mutation {
        case .add(let amount): state.count += amount
        case .setLoading(let loading): state.isLoading = loading
        }
        return state
    }

    func transform(state: AsyncStream<State>) -> AsyncStream<State> {
        calls.append("transform(state:)")
        return state
    }

    func mutationDidFail(_ error: any Error, action: Action) {
        failures.append(action)
    }
}

/// Waits for the first state satisfying `predicate`.
@MainActor
func firstState<R: Reactor>(of reactor: R, where predicate: (R.State) -> Bool) async -> R.State? {
    for await state in reactor.state where predicate(state) { return state }
    return nil
}

@MainActor
@Suite("Reactor")
struct ReactorTests {
    @Test("starts at the initial state, and the state stream replays the current state")
    func initialState() async throws {
        let reactor = CounterReactor()
        #expect(reactor.currentState == CounterReactor.State())
        reactor.send(.increase)
        _ = await firstState(of: reactor) { $0.count == 1 }
        var late = reactor.state.makeAsyncIterator()
        #expect(try await nextValue(&late).count == 1)
        #expect(reactor.currentState.count == 1)
    }

    @Test("runs the pipeline in ReactorKit's order")
    func pipelineOrder() async {
        let reactor = CounterReactor()
        reactor.send(.increase)
        _ = await firstState(of: reactor) { $0.count == 1 }
        #expect(
            reactor.calls == [
                "transform(action:)", "transform(mutation:)", "transform(state:)",
                "mutate(increase)", "reduce(add(1))",
            ])
    }

    @Test("folds every mutation of an async mutate, in order")
    func asyncMutations() async throws {
        let reactor = CounterReactor()
        var states = reactor.state.makeAsyncIterator()
        reactor.send(.loadSlowly(5))
        #expect(try await nextValue(&states) == .init(count: 0, isLoading: false))
        #expect(try await nextValue(&states) == .init(count: 0, isLoading: true))
        #expect(try await nextValue(&states) == .init(count: 5, isLoading: true))
        #expect(try await nextValue(&states) == .init(count: 5, isLoading: false))
    }

    @Test("an error in mutate ends only that action's mutations; later actions still work")
    func errorsDoNotKillTheStream() async {
        let reactor = CounterReactor()
        reactor.send(.fail)
        reactor.send(.increase)
        reactor.send(.increase)
        let state = await firstState(of: reactor) { $0.count == 2 }
        #expect(state?.isLoading == true, "the failing action's first mutation was applied")
        #expect(reactor.failures == [.fail])
    }

    @Test("an Action == Mutation reactor passes actions through by default")
    func defaultMutate() async {
        @MainActor final class Toggle: Reactor {
            typealias Action = Bool
            let initialState = false
            func reduce(state: Bool, mutation: Bool) -> Bool { mutation }
        }
        let reactor = Toggle()
        reactor.send(true)
        #expect(await firstState(of: reactor) { $0 } == true)
    }

    @Test("stub mode records actions and sets the state directly, bypassing mutate and reduce")
    func stub() async throws {
        let reactor = CounterReactor()
        reactor.isStubEnabled = true
        var states = reactor.state.makeAsyncIterator()
        reactor.send(.increase)
        reactor.send(.loadSlowly(3))
        #expect(reactor.stub.actions == [.increase, .loadSlowly(3)])
        #expect(reactor.stub.lastAction == .loadSlowly(3))
        reactor.stub.setState(.init(count: 42, isLoading: true))
        #expect(reactor.currentState.count == 42)
        #expect(try await nextValue(&states).count == 0)
        #expect(try await nextValue(&states).count == 42)
        #expect(!reactor.calls.contains { $0.hasPrefix("mutate") || $0.hasPrefix("reduce") })
    }

    @Test("handles 1,000 actions without losing one")
    func manyActions() async {
        let reactor = CounterReactor()
        for _ in 0..<1_000 { reactor.send(.increase) }
        let state = await firstState(of: reactor) { $0.count == 1_000 }
        #expect(state?.count == 1_000)
    }

    @Test("states can be confined to an interactor's active scope")
    func confinedToInteractor() async throws {
        let reactor = CounterReactor()
        let interactor = Interactor()
        interactor.activate()
        var confined = reactor.state.confine(to: interactor).makeAsyncIterator()
        #expect(try await nextValue(&confined).count == 0)
        reactor.send(.increase)
        #expect(try await nextValue(&confined).count == 1)
    }
}
