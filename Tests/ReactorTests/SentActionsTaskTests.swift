import Reactor
import Testing

@MainActor
@Suite("SentActions.task: work a command awaits that holds no reactor's turn")
struct SentActionsTaskTests {
    @Test("the command's group awaits the task and what it sends; the reactor's queue goes on meanwhile")
    func awaitedWithItsCommand() async {
        let reactor = CounterReactor()
        let gate = Gate()
        let command = SentActions.during {
            SentActions.task {
                await gate.wait()
                reactor.send(.set(7))
            }
        }
        #expect(command.count == 1)
        await reactor.send(.increase).reduced()
        #expect(reactor.currentState.count == 1, "an action sent meanwhile waited for the task")
        #expect(!command.isReduced)
        gate.open()
        await command.reduced()
        #expect(reactor.currentState.count == 7, "the group returned before the task's action")
    }

    @Test("a cancelled task counts as reduced at once, though its work has not returned")
    func cancelledIsReduced() async {
        let gate = Gate()
        var task: Task<Void, Never>?
        let command = SentActions.during {
            task = SentActions.task { await gate.wait() }
        }
        task?.cancel()
        await command.reduced()
        #expect(command.isReduced)
        gate.open()
        await task?.value
    }

    @Test("cancelTasks gives up the group's tasks, its own and nested ones, and leaves its actions to await")
    func cancelTasksLeavesActions() async {
        let reactor = CounterReactor()
        let gate = Gate()
        var task: Task<Void, Never>?
        var inner: SentActions?
        let session = SentActions.during {
            inner = SentActions.during {
                task = SentActions.task { await gate.wait() }
            }
            reactor.send(.set(3))
        }
        session.cancelTasks()
        await session.reduced()
        #expect(session.isReduced)
        #expect(inner?.isReduced == true, "the nested group's task was cancelled with the session's")
        #expect(task?.isCancelled == true)
        #expect(reactor.currentState.count == 3, "the action was awaited, not dropped")
        gate.open()
        await task?.value
    }
}
