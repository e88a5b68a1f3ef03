import Domain
import Reactor

/// The root's state machine: it reads the tab kept from the last launch and keeps each tab
/// chosen, awaiting the preferences store off the main actor; a failure becomes a notice for the
/// status line.
@MainActor
final class RootReactor: Reactor {
    enum Action: Sendable {
        /// Read the tab kept from the last launch: the first action, sent on activation.
        case restoreTab
        /// Keep the tab titled so for the next launch.
        case keepTab(String)
    }

    enum Mutation: Sendable {
        case restore(tab: String)
        case fail(Notice)
    }

    struct State: Sendable {
        /// The tab kept from the last launch, once read; `nil` before, or when none was kept.
        var restoredTab: String?
        /// Why a tab could not be read or kept, for the status line: a pulse, so that the same
        /// sentence twice still shows twice.
        var notice = Pulse<Notice?>(nil)
    }

    let initialState = State()
    let runtime = ReactorRuntime<RootReactor>()
    private let preferences: any ScreenPreferencesRepository

    init(preferences: any ScreenPreferencesRepository) {
        self.preferences = preferences
    }

    func mutate(action: Action) -> Mutations<Mutation> {
        let preferences = self.preferences
        switch action {
        case .restoreTab:
            return .run { send in
                do {
                    if let tab = try await preferences.loadPreferences().tab { send(.restore(tab: tab)) }
                } catch {
                    send(.fail(.failure("The last tab could not be read: \(error)")))
                }
            }
        case .keepTab(let title):
            return .run { send in
                do {
                    try await preferences.updatePreferences { $0.tab = title }
                } catch {
                    send(.fail(.failure("The tab is not kept for the next launch: \(error)")))
                }
            }
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .restore(let tab): state.restoredTab = tab
        case .fail(let notice): state.notice.value = notice
        }
        return state
    }
}
