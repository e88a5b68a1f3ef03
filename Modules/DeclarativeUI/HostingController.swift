import HeadlessUI
import Layout
import LayoutDSL
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
/// the next frame after the main actor ran it (call ``setNeedsUpdate()`` to update at once).
/// The root element's view is as wide as the controller's view and as tall as its content,
/// unless it holds a ``Spacer``, which lets it grow to the bottom.
open class HostingController<Content: Element>: ViewController {
    /// The element shown. Setting it updates the views.
    public var rootElement: Content {
        didSet { setNeedsUpdate() }
    }

    private var node: ElementNode?
    private var needsUpdate = true
    fileprivate let host = HostView()

    /// How many times the body has been evaluated; tests use it to check that unrelated changes
    /// do not re-render.
    package private(set) var renderCount = 0

    /// A controller whose view shows `rootElement`, built when the view loads.
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
            attach(built.view)
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
}

extension HostingController {
    /// Holds the body's view at the top of the host, as wide as it and as tall as its content,
    /// or down to the bottom when the content grows for free (a spacer).
    fileprivate func attach(_ content: View) {
        host.addSubview(content)
        makeLayout {
            _ = try content.ndl.makeConstraints { make in
                make.left.right.top.equalToSuperview()
                make.bottom.lessThanOrEqualToSuperview()
                // Weaker than any hugging, so only content that grows for free reaches down.
                make.bottom.equalToSuperview().priority(1).labeled("HostingController-grow")
            }
        }
    }
}

/// What a ``HostView`` asks of its controller.
@MainActor
protocol HostUpdating: AnyObject {
    func updateIfNeeded()
    func setNeedsUpdate()
}

extension HostingController: HostUpdating {}
