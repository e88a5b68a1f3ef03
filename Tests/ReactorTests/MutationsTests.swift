import Reactor
import Testing

/// What a ``SeeingReactor``'s work saw, kept outside the reactor so the work need not hold it.
@MainActor
private final class Log {
    var entries: [String] = []
}

/// A reactor whose actions record what their work sees.
@MainActor
private final class SeeingReactor: Reactor {
    enum Action: Sendable {
        case addTwice
        case nothing
        /// Waits for `gate` in a way that cancelling the action's task does not end, then adds 1.
        case addOnceOpen(Gate)
    }
    enum Mutation: Sendable { case add(Int) }
    struct State: Sendable, Equatable { var count = 0 }

    let initialState = State()
    let runtime = ReactorRuntime<SeeingReactor>()
    let log: Log
    var reduced = 0

    init(log: Log) {
        self.log = log
    }

    func mutate(action: Action) -> Mutations<Mutation> {
        switch action {
        case .addTwice:
            return .run { [self] send in
                send(.add(1))
                log.entries.append("saw \(currentState.count)")
                await Task.yield()
                send(.add(2))
                log.entries.append("saw \(currentState.count)")
            }
        case .nothing:
            return .empty()
        case .addOnceOpen(let gate):
            let log = self.log
            return .run { send in
                log.entries.append("waiting")
                await Task { await gate.wait() }.value  // a task of its own: not cancelled with this one
                send(.add(1))
                log.entries.append("sent")
            }
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        reduced += 1
        guard case .add(let amount) = mutation else { return state }
        return State(count: state.count + amount)
    }
}

@MainActor
@Suite("Mutations")
struct MutationsTests {
    @Test("each mutation the work of run sends is reduced before send returns")
    func sendReducesAtOnce() async {
        let reactor = SeeingReactor(log: Log())
        await reactor.send(.addTwice).reduced()
        #expect(reactor.log.entries == ["saw 1", "saw 3"])
        #expect(reactor.currentState.count == 3)
    }

    @Test("empty reduces nothing, and its action counts as reduced")
    func empty() async {
        let reactor = SeeingReactor(log: Log())
        await reactor.send(.nothing).reduced()
        #expect(reactor.reduced == 0)
        #expect(reactor.currentState == SeeingReactor.State())
    }

    @Test("just reduces its mutations in order")
    func just() async {
        let reactor = CounterReactor()
        await reactor.send(.set(4)).reduced()
        await reactor.send(.double).reduced()
        #expect(reactor.calls.filter { $0.hasPrefix("reduce") } == ["reduce(set(4))", "reduce(add(4))"])
        #expect(reactor.currentState.count == 8)
    }

    @Test(
        "a reactor that goes away while its work ignores the cancellation: the action returns once the work has, and what it sends then is dropped"
    )
    func workOutlivesItsReactor() async {
        let log = Log()
        let gate = Gate()
        var reactor: SeeingReactor? = SeeingReactor(log: log)
        weak let gone = reactor
        let running = reactor?.send(.addOnceOpen(gate))
        while log.entries.isEmpty { await Task.yield() }
        reactor = nil
        #expect(gone == nil, "the work does not keep its reactor")
        for _ in 0..<20 { await Task.yield() }
        #expect(running?.isReduced == false, "the action returned while its work still ran")
        gate.open()
        await running?.reduced()
        #expect(log.entries == ["waiting", "sent"])
    }
}
