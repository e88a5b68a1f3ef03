import Reactor
import Testing

/// A reactor whose one action records the state it sees after each `send`.
@MainActor
private final class SeeingReactor: Reactor {
    enum Action: Sendable { case addTwice }
    enum Mutation: Sendable { case add(Int) }
    struct State: Sendable { var count = 0 }

    let initialState = State()
    let runtime = ReactorRuntime<SeeingReactor>()
    var seen: [Int] = []

    func mutate(action: Action) -> Mutations<Mutation> {
        .run { [self] send in
            send(.add(1))
            seen.append(currentState.count)
            await Task.yield()
            send(.add(2))
            seen.append(currentState.count)
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        guard case .add(let amount) = mutation else { return state }
        return State(count: state.count + amount)
    }
}

@MainActor
@Suite("Mutations")
struct MutationsTests {
    @Test("each mutation the work of run sends is reduced before send returns")
    func sendReducesAtOnce() async {
        let reactor = SeeingReactor()
        await reactor.send(.addTwice).reduced()
        #expect(reactor.seen == [1, 3])
        #expect(reactor.currentState.count == 3)
    }

    @Test("just reduces its mutations in order, and empty none")
    func justAndEmpty() async {
        let reactor = CounterReactor()
        await reactor.send(.set(4)).reduced()
        await reactor.send(.double).reduced()
        #expect(reactor.calls.filter { $0.hasPrefix("reduce") } == ["reduce(set(4))", "reduce(add(4))"])
        #expect(reactor.currentState.count == 8)
    }
}
