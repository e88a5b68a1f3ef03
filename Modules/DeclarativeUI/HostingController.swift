import HeadlessUI
import Layout
import Observation

/// A view controller whose view is built from an element, as SwiftUI's `UIHostingController`.
///
/// ```swift
/// let profile = HostingController(rootElement: ProfileScreen(model: model))
/// navigation.pushViewController(profile)
/// ```
///
/// When ``State`` the body read changes, the controller evaluates the body again before the
/// next layout and updates the views in place. `@Observable` models read in the body are
/// tracked with Observation: their changes come in through a main-actor task, so they show from
/// the next frame after the main actor ran it (call ``setNeedsUpdate()`` to update at once). The root element's view is as wide as the controller's view and as tall as its
/// content, unless it holds a ``Spacer``, which lets it grow to the bottom.
open class HostingController<Content: Element>: ViewController {
    /// The element shown. Setting it updates the views.
    public var rootElement: Content {
        didSet { setNeedsUpdate() }
    }

    private var node: ElementNode?
    private var needsUpdate = true
    private let host = HostView()

    /// How many times the body has been evaluated; tests use it to check that unrelated changes
    /// do not re-render.
    public private(set) var renderCount = 0

    /// Hosts `rootElement`.
    public init(rootElement: Content) {
        self.rootElement = rootElement
        super.init()
    }

    /// The hosting view, which evaluates the body when it lays out.
    open override func loadView() {
        host.controller = self
        host.layoutMargins = .zero
        view = host
    }

    /// Asks for the body to be evaluated again before the next layout.
    public func setNeedsUpdate() {
        needsUpdate = true
        host.setNeedsLayout()
    }

    /// Evaluates the body now if something it read changed, and updates the views.
    public func updateIfNeeded() {
        guard needsUpdate else { return }
        needsUpdate = false
        renderCount += 1
        let element = rootElement
        let oldView = node?.view
        let previousHost = RenderTracking.current
        RenderTracking.current = self
        defer { RenderTracking.current = previousHost }
        let built = withObservationTracking {
            if let node {
                return node.updated(to: element, in: ElementContext())
            }
            return ElementNode.make(element, in: ElementContext())
        } onChange: { [weak self] in
            // Called on whichever thread changes the model, before the change.
            Task { @MainActor in self?.setNeedsUpdate() }
        }
        if built.view !== oldView {
            oldView?.removeFromSuperview()
            host.attach(built.view)
        }
        node = built
    }
}

/// The hosting controller's view: it evaluates the body in its layout pass.
final class HostView: View {
    weak var controller: (any HostUpdating)?

    override func layoutSubviews() {
        super.layoutSubviews()
        controller?.updateIfNeeded()
    }

    func attach(_ content: View) {
        addSubview(content)
        content.translatesAutoresizingMaskIntoConstraints = false
        LayoutConstraint.activate([
            LayoutConstraint(
                item: content, attribute: .left, relatedBy: .equal, toItem: self, attribute: .left),
            LayoutConstraint(
                item: content, attribute: .right, relatedBy: .equal, toItem: self, attribute: .right),
            LayoutConstraint(
                item: content, attribute: .top, relatedBy: .equal, toItem: self, attribute: .top),
            LayoutConstraint(
                item: content, attribute: .bottom, relatedBy: .lessThanOrEqual, toItem: self,
                attribute: .bottom),
            // Weaker than any hugging, so only content that grows for free (a spacer) reaches down.
            LayoutConstraint(
                item: content, attribute: .bottom, relatedBy: .equal, toItem: self, attribute: .bottom,
                priority: 1,
                identifier: "HostingController-grow"),
        ])
    }
}

/// What a ``HostView`` asks of its controller.
@MainActor
protocol HostUpdating: AnyObject {
    func updateIfNeeded()
    func setNeedsUpdate()
}

extension HostingController: HostUpdating {}
