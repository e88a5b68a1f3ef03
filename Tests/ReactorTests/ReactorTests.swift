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

/// The counts a synchronous sink heard.
@MainActor
final class Heard {
    var counts: [Int] = []

    func sink(_ reactor: CounterReactor) -> any Cancellable {
        reactor.state.sink { state in MainActor.assumeIsolated { self.counts.append(state.count) } }
    }
}

/// A one-shot signal a test opens when it wants a held-back mutation to arrive.
final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    func open() { continuation.finish() }

    func wait() async {
        for await _ in stream {}
    }
}

@MainActor
final class CounterReactor: Reactor {
    enum Action: Sendable, Equatable {
        case increase
        case fail
        case loadSlowly(Int)
        case set(Int)
        /// Sets `value` once `gate` opens: an answer that comes late.
        case setLate(Int, gate: Gate)
        /// Adds the count it sees in `mutate` to itself: doubles it.
        case double

        static func == (lhs: Action, rhs: Action) -> Bool {
            String(describing: lhs) == String(describing: rhs)
        }
    }

    enum Mutation: Sendable, Equatable {
        case add(Int)
        case set(Int)
        case setLoading(Bool)
    }

    struct State: Sendable, Equatable {
        var count = 0
        var isLoading = false
    }

    let initialState = State()
    let runtime = ReactorRuntime<CounterReactor>()
    var calls: [String] = []
    var failures: [Action] = []

    func mutate(action: Action) -> Mutations<Mutation> {
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
                await Task.yield()
                send(.add(amount))
                send(.setLoading(false))
            }
        case .set(let value):
            return .just(.set(value))
        case .setLate(let value, let gate):
            return .run { send in
                await gate.wait()
                send(.set(value))
            }
        case .double:
            return .just(.add(currentState.count))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        calls.append("reduce(\(mutation))")
        var state = state
        switch mutation {
        case .add(let amount): state.count += amount
        case .set(let value): state.count = value
        case .setLoading(let loading): state.isLoading = loading
        }
        return state
    }

    func mutationDidFail(_ error: any Error, action: Action) {
        failures.append(action)
    }
}

@MainActor
@Suite("Reactor")
struct ReactorTests {
    @Test("starts at the initial state, and the state stream replays the current state")
    func initialState() async throws {
        let reactor = CounterReactor()
        #expect(reactor.currentState == CounterReactor.State())
        await reactor.send(.increase).reduced()
        var late = reactor.state.makeAsyncIterator()
        #expect(try await nextValue(&late).count == 1)
        #expect(reactor.currentState.count == 1)
    }

    @Test("send(_:).reduced() returns once every mutation of the action is reduced, and no sooner")
    func awaitableSend() async {
        let reactor = CounterReactor()
        let sent = reactor.send(.loadSlowly(5))
        #expect(!sent.isReduced)
        await sent.reduced()
        #expect(sent.isReduced)
        #expect(reactor.currentState == .init(count: 5, isLoading: false))
        #expect(
            reactor.calls == [
                "mutate(loadSlowly(5))", "reduce(setLoading(true))", "reduce(add(5))",
                "reduce(setLoading(false))",
            ])
    }

    @Test(
        "a wait for reduced() that is cancelled, before or while it waits, returns before the action is reduced"
    )
    func cancelledWaitReturns() async throws {
        let reactor = CounterReactor()
        let gate = Gate()
        // Without cancellation the waits below would last until the action is reduced: the gate
        // opens after ten minutes anyway, so that the test fails rather than waits for ever. Not
        // sooner: in a plain `swift test` every suite shares the main actor, and a full run on two
        // loaded cores kept this test's main-actor work waiting for more than 60 s.
        let lastResort = Task {
            try await Task.sleep(for: .seconds(600))
            gate.open()
        }
        let sent = reactor.send(.setLate(1, gate: gate))
        let cancelledAtOnce = Task { @MainActor in await sent.reduced() }
        cancelledAtOnce.cancel()
        await cancelledAtOnce.value
        let cancelledWhileWaiting = Task { @MainActor in await sent.reduced() }
        for _ in 0..<20 { await Task.yield() }
        cancelledWhileWaiting.cancel()
        await cancelledWhileWaiting.value
        #expect(!sent.isReduced, "the waits returned only once the action was reduced")
        gate.open()
        await sent.reduced()
        #expect(reactor.currentState.count == 1)
        lastResort.cancel()
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

    @Test("a later action's state is never overwritten by an earlier action's late result")
    func laterActionWins() async {
        let reactor = CounterReactor()
        let heard = Heard()
        let subscription = heard.sink(reactor)
        let gate = Gate()
        let early = reactor.send(.setLate(1, gate: gate))
        let later = reactor.send(.set(2))
        for _ in 0..<20 { await Task.yield() }
        #expect(reactor.currentState.count == 0, "the later action waits its turn")
        gate.open()
        await later.reduced()
        #expect(early.isReduced)
        #expect(reactor.currentState.count == 2)
        #expect(heard.counts == [0, 1, 2])
        subscription.cancel()
    }

    @Test("mutate sees the state the action before it made")
    func mutateSeesPreviousState() async {
        let reactor = CounterReactor()
        reactor.send(.set(3))
        await reactor.send(.double).reduced()
        #expect(reactor.currentState.count == 6)
    }

    @Test("an error in mutate ends only that action's mutations; later actions still work")
    func errorsEndOnlyTheirAction() async {
        let reactor = CounterReactor()
        let failing = reactor.send(.fail)
        reactor.send(.increase)
        await reactor.send(.increase).reduced()
        #expect(failing.isReduced)
        #expect(
            reactor.currentState == .init(count: 2, isLoading: true),
            "the failing action's first mutation was applied")
        #expect(reactor.failures == [.fail])
    }

    @Test("an Action == Mutation reactor passes actions through by default")
    func defaultMutate() async {
        @MainActor final class Toggle: Reactor {
            typealias Action = Bool
            let initialState = false
            let runtime = ReactorRuntime<Toggle>()
            func reduce(state: Bool, mutation: Bool) -> Bool { mutation }
        }
        let reactor = Toggle()
        await reactor.send(true).reduced()
        #expect(reactor.currentState)
    }

    @Test("stub mode records actions and sets the state directly, bypassing mutate and reduce")
    func stub() async throws {
        let reactor = CounterReactor()
        reactor.isStubEnabled = true
        var states = reactor.state.makeAsyncIterator()
        #expect(reactor.send(.increase).isReduced, "nothing to wait for in stub mode")
        reactor.send(.loadSlowly(3))
        #expect(reactor.stub.actions == [.increase, .loadSlowly(3)])
        #expect(reactor.stub.lastAction == .loadSlowly(3))
        reactor.stub.setState(.init(count: 42, isLoading: true))
        #expect(reactor.currentState.count == 42)
        #expect(try await nextValue(&states).count == 0)
        #expect(try await nextValue(&states).count == 42)
        #expect(reactor.calls.isEmpty)
    }

    @Test("handles 1,000 actions in order without losing one")
    func manyActions() async {
        let reactor = CounterReactor()
        var last: SentAction?
        for _ in 0..<1_000 { last = reactor.send(.increase) }
        await last?.reduced()
        #expect(reactor.currentState.count == 1_000)
    }

    @Test("a synchronous sink hears each state before its action counts as reduced")
    func sinkBeforeReduced() async {
        let reactor = CounterReactor()
        let heard = Heard()
        let subscription = heard.sink(reactor)
        await reactor.send(.set(7)).reduced()
        #expect(heard.counts == [0, 7])
        subscription.cancel()
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

    @Test("a reactor that goes away cancels its running action and lets every waiting send return")
    func reactorGoesAway() async {
        var reactor: CounterReactor? = CounterReactor()
        weak let gone = reactor
        let gate = Gate()
        let running = reactor?.send(.setLate(1, gate: gate))
        let queued = reactor?.send(.increase)
        for _ in 0..<20 { await Task.yield() }
        reactor = nil
        #expect(gone == nil, "no side table or running work keeps a reactor alive")
        await running?.reduced()
        await queued?.reduced()
        gate.open()
    }
}

@MainActor
@Suite("SentActions")
struct SentActionsTests {
    @Test("collects what any reactor is sent while the body runs, through nested calls and groups")
    func collects() async {
        let first = CounterReactor()
        let second = CounterReactor()
        let outside = first.send(.set(10))
        var inner: SentActions?
        let outer = SentActions.during {
            first.send(.loadSlowly(1))
            inner = SentActions.during { second.send(.loadSlowly(2)) }
        }
        #expect(outer.count == 2)
        #expect(inner?.count == 1)
        #expect(!outer.isReduced)
        await outer.reduced()
        #expect(outside.isReduced, "sent before, so handled before")
        #expect(first.currentState.count == 11)
        #expect(second.currentState.count == 2)
        #expect(inner?.isReduced == true)
        #expect(SentActions.during {}.isReduced, "an empty group is reduced")
    }

    @Test("an action a published state sets going belongs to the group of the action that changed it")
    func followsWhatAStateSetsGoing() async {
        // As a restored tab appears once its read is reduced and its screen asks for data.
        let tabs = CounterReactor()
        let screen = CounterReactor()
        let gate = Gate()
        let appearing = tabs.state.sink { state in
            MainActor.assumeIsolated {
                if state.count == 2, !state.isLoading { screen.send(.setLate(7, gate: gate)) }
            }
        }
        defer { appearing.cancel() }
        let launch = SentActions.during { tabs.send(.loadSlowly(2)) }
        let waiting = Task { await launch.reduced() }
        while screen.calls.isEmpty { await Task.yield() }
        #expect(!launch.isReduced, "the screen's request is part of the launch")
        gate.open()
        await waiting.value
        #expect(screen.currentState.count == 7, "awaiting the launch awaited what it led to")
        #expect(launch.count == 2)
    }
}
