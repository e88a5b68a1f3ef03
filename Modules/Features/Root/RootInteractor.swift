import Domain
import HeadlessUI
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
    /// Shows `status` in the status line.
    func show(status: StatusMessage)
}

/// The root's logic: it shows the tab the user left last time and keeps each tab they choose.
/// Its children tell it nothing yet.
@MainActor
final class RootInteractor: PresentableInteractor<any RootPresentable>, RootInteractable,
    RootPresentableListener
{
    weak var router: (any RootRouting)?
    private let preferences: any ScreenPreferencesRepository

    init(presenter: any RootPresentable, preferences: any ScreenPreferencesRepository) {
        self.preferences = preferences
        super.init(presenter: presenter)
        presenter.listener = self
    }

    /// The tab kept from the last launch; a failure to read it shows the first tab and says so.
    override func didBecomeActive() {
        super.didBecomeActive()
        do {
            if let tab = try preferences.loadPreferences().tab { presenter.selectTab(titled: tab) }
        } catch {
            presenter.show(status: .failure("The last tab could not be read: \(error)"))
        }
    }

    func didSelectTab(titled title: String) {
        do {
            try preferences.updatePreferences { $0.tab = title }
        } catch {
            presenter.show(status: .failure("The tab is not kept for the next launch: \(error)"))
        }
    }
}
