/// The interface an interactor uses to show things. RIBs keeps the interactor unaware of views:
/// it talks to a `Presentable` protocol that the view controller (or a ``Presenter``) implements.
@MainActor
public protocol Presentable: AnyObject {}

/// A presenter between an interactor and a view controller, for RIBs that want one; most let
/// the view controller be the `Presentable` itself.
@MainActor
open class Presenter<ViewControllerType>: Presentable {
    /// The view controller this presenter drives.
    public let viewController: ViewControllerType

    /// Creates a presenter for `viewController`.
    public init(viewController: ViewControllerType) {
        self.viewController = viewController
    }
}
