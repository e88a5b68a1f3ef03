import RIBs
import Reactor
import Testing

/// A reactor whose state has a pulse: each action sets it, or leaves it as it is.
@MainActor
private final class NoticeReactor: Reactor {
    enum Action: Sendable {
        case say(String?)
        case count
    }

    struct State: Sendable {
        var notice = Pulse<String?>(nil)
        var count = 0
    }

    let initialState = State()
    let runtime = ReactorRuntime<NoticeReactor>()

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        switch mutation {
        case .say(let text): state.notice.value = text
        case .count: state.count += 1
        }
        return state
    }
}

/// What a pulse's observer heard, in order.
@MainActor
private final class HeardNotices {
    var values: [String?] = []
}

@MainActor
@Suite("Pulse: a state value that is news each time a mutation sets it")
struct PulseTests {
    @Test("once per setting: the same value twice is heard twice, a kept one never, nil too")
    func oncePerSetting() async {
        let reactor = NoticeReactor()
        let heard = HeardNotices()
        let watch = reactor.pulse(\.notice) { heard.values.append($0) }
        await reactor.send(.say("Saved.")).reduced()
        await reactor.send(.count).reduced()
        await reactor.send(.say("Saved.")).reduced()
        await reactor.send(.say(nil)).reduced()
        #expect(heard.values == ["Saved.", "Saved.", nil])
        watch.cancel()
        await reactor.send(.say("After.")).reduced()
        #expect(heard.values.count == 3, "a cancelled observer hears nothing more")
    }

    @Test("an observer that comes later is not told the value already set, only the next")
    func lateObserver() async {
        let reactor = NoticeReactor()
        await reactor.send(.say("Before.")).reduced()
        let heard = HeardNotices()
        let watch = reactor.pulse(\.notice) { heard.values.append($0) }
        #expect(heard.values.isEmpty)
        await reactor.send(.say("After.")).reduced()
        #expect(heard.values == ["After."])
        watch.cancel()
    }
}
