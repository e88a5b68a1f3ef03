import Domain
import Profile
import RIBs
import Todo

/// What the root router offers.
@MainActor
protocol RootRouting: ViewableRouting {}

/// What the root screen shows: its tabs, one of them selected.
@MainActor
protocol RootPresentable: Presentable {
    var listener: (any RootPresentableListener)? { get set }
    /// Shows the tab titled `title`, without telling the listener.
    func selectTab(titled title: String)
    /// Posts `notice` to the status line.
    func post(_ notice: Notice?)
}

/// The root's logic: it shows the tab the user left last time and keeps each tab they choose,
/// through its ``RootReactor``. Its children tell it nothing yet.
@MainActor
final class RootInteractor: PresentableInteractor<any RootPresentable>, RootInteractable,
    RootPresentableListener
{
    weak var router: (any RootRouting)?
    let reactor: RootReactor
    /// Whether the user chose a tab in this run: the kept one, read later, no longer replaces it.
    private var hasChosenTab = false

    init(presenter: any RootPresentable, reactor: RootReactor) {
        self.reactor = reactor
        super.init(presenter: presenter)
        presenter.listener = self
    }

    /// Shows the tab kept from the last launch once it is read; a failure to read it shows the
    /// first tab and says so.
    override func didBecomeActive() {
        super.didBecomeActive()
        reactor.state.sink { [weak self] state in
            MainActor.assumeIsolated { self?.present(state) }
        }
        .cancelOnDeactivate(interactor: self)
        reactor.pulse(\.notice) { [weak self] notice in self?.presenter.post(notice) }
            .cancelOnDeactivate(interactor: self)
        reactor.send(.restoreTab)
    }

    private func present(_ state: RootReactor.State) {
        if let tab = state.restoredTab, !hasChosenTab { presenter.selectTab(titled: tab) }
    }

    func didSelectTab(titled title: String) {
        hasChosenTab = true
        reactor.send(.keepTab(title))
    }
}
