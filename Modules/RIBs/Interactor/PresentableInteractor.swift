/// An interactor that owns a presenter, usually its RIB's view controller behind a `Presentable`
/// protocol.
///
/// When the interactor is deallocated, the presenter is expected to follow: the
/// ``LeakDetector`` checks it within ``LeakDefaultExpectationTime/deallocation``.
@MainActor
open class PresentableInteractor<PresenterType>: Interactor {
    /// The presenter, held strongly.
    public let presenter: PresenterType

    /// Creates an inactive interactor that owns `presenter`.
    public init(presenter: PresenterType) {
        self.presenter = presenter
    }

    isolated deinit {
        LeakDetector.instance.expectDeallocate(object: presenter as AnyObject)
    }
}
