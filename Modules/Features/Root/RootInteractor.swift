import Profile
import RIBs
import Todo

/// What the root router offers.
@MainActor
protocol RootRouting: ViewableRouting {}

/// What the root screen shows; nothing beyond its tabs.
@MainActor
protocol RootPresentable: Presentable {}

/// The root's logic: it listens to its children, which tell it nothing yet.
@MainActor
final class RootInteractor: PresentableInteractor<any RootPresentable>, RootInteractable {
    weak var router: (any RootRouting)?
}
