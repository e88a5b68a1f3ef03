/// The files `ribcage new rib` writes: Uber's RIB template (Builder, Component, Dependency,
/// Interactor, Router, listener protocols, and a ViewController unless viewless), in Swift 6.
enum RIBTemplates {
    static func builder(_ name: String, viewless: Bool) -> String {
        let make =
            viewless
            ? """
                    let interactor = \(name)Interactor()
                    interactor.listener = listener
                    return \(name)Router(interactor: interactor)
            """
            : """
                    let viewController = \(name)ViewController()
                    let interactor = \(name)Interactor(presenter: viewController)
                    interactor.listener = listener
                    return \(name)Router(interactor: interactor, viewController: viewController)
            """
        return """
            import RIBs

            /// What \(name) needs from its parent. The parent's component conforms to it.
            public protocol \(name)Dependency: Dependency {}

            /// \(name)'s dependency-injection scope: what \(name) and its children share.
            public final class \(name)Component: Component<any \(name)Dependency> {}

            /// Builds the \(name) RIB.
            @MainActor
            public protocol \(name)Buildable: Buildable {
                /// Builds the RIB; `listener` hears what \(name) reports to its parent.
                func build(withListener listener: any \(name)Listener) -> any \(name)Routing
            }

            /// Builds the \(name) RIB from its parent's dependency.
            @MainActor
            public final class \(name)Builder: Builder<any \(name)Dependency>, \(name)Buildable {
                /// Creates the builder over the parent's dependency.
                public override init(dependency: any \(name)Dependency) {
                    super.init(dependency: dependency)
                }

                /// Builds the component, interactor\(viewless ? "" : ", view controller") and
                /// router, and wires them.
                public func build(withListener listener: any \(name)Listener) -> any \(name)Routing {
                    _ = \(name)Component(dependency: dependency)
            \(make)
                }
            }

            """
    }

    static func interactor(_ name: String, viewless: Bool) -> String {
        let base = viewless ? "Interactor" : "PresentableInteractor<any \(name)Presentable>"
        let initializer =
            viewless
            ? ""
            : """

                override init(presenter: any \(name)Presentable) {
                    super.init(presenter: presenter)
                    presenter.listener = self
                }

            """
        let presentable =
            viewless
            ? ""
            : """

            /// What the interactor shows; \(name)ViewController implements it.
            @MainActor
            protocol \(name)Presentable: Presentable {
                var listener: (any \(name)PresentableListener)? { get set }
            }

            """
        return """
            import RIBs

            /// What the router of \(name) offers its interactor.
            @MainActor
            public protocol \(name)Routing: \(viewless ? "Routing" : "ViewableRouting") {}
            \(presentable)
            /// What \(name) reports to its parent.
            @MainActor
            public protocol \(name)Listener: AnyObject {}

            /// \(name)'s business logic.
            @MainActor
            final class \(name)Interactor: \(base), \(name)Interactable\(viewless ? "" : ", \(name)PresentableListener") {
                weak var router: (any \(name)Routing)?
                weak var listener: (any \(name)Listener)?
            \(initializer)
                override func didBecomeActive() {
                    super.didBecomeActive()
                }

                override func willResignActive() {
                    super.willResignActive()
                }
            }

            """
    }

    static func router(_ name: String, viewless: Bool) -> String {
        let base =
            viewless
            ? "Router<any \(name)Interactable>"
            : "ViewableRouter<any \(name)Interactable, any \(name)ViewControllable>"
        let initializer =
            viewless
            ? """
                    override init(interactor: any \(name)Interactable) {
                        super.init(interactor: interactor)
                        interactor.router = self
                    }
            """
            : """
                    override init(interactor: any \(name)Interactable, viewController: any \(name)ViewControllable) {
                        super.init(interactor: interactor, viewController: viewController)
                        interactor.router = self
                    }
            """
        return """
            import RIBs

            /// What the router needs of its interactor.
            @MainActor
            protocol \(name)Interactable: Interactable {
                var router: (any \(name)Routing)? { get set }
                var listener: (any \(name)Listener)? { get set }
            }
            \(viewless ? "" : """

            /// What the router needs of its view controller.
            @MainActor
            protocol \(name)ViewControllable: ViewControllable {}

            """)
            /// Attaches and detaches \(name)'s children.
            @MainActor
            final class \(name)Router: \(base), \(name)Routing {
            \(initializer)
            }

            """
    }

    /// A view controller for `name`: a HeadlessUI `ViewController` when the workspace has the
    /// RIBsHeadlessUI adapter, which makes it `ViewControllable`; otherwise a bare class.
    static func viewController(_ name: String, headlessUI: Bool) -> String {
        guard headlessUI else {
            return """
                import RIBs

                /// What the view reports to the interactor.
                @MainActor
                protocol \(name)PresentableListener: AnyObject {}

                /// \(name)'s view controller.
                @MainActor
                final class \(name)ViewController: \(name)Presentable, \(name)ViewControllable {
                    weak var listener: (any \(name)PresentableListener)?
                    var isPresentedInWindow = false
                }

                """
        }
        return """
            import HeadlessUI
            import Layout
            import LayoutDSL
            import RIBs
            import RIBsHeadlessUI

            /// What the view reports to the interactor.
            @MainActor
            protocol \(name)PresentableListener: AnyObject {}

            /// \(name)'s screen, drawn by HeadlessUI. RIBsHeadlessUI makes every `ViewController`
            /// `ViewControllable`, so routers can push and present it.
            @MainActor
            final class \(name)ViewController: ViewController, \(name)Presentable, \(name)ViewControllable {
                weak var listener: (any \(name)PresentableListener)?

                private let titleLabel = Label("\(name)")

                override func viewDidLoad() {
                    super.viewDidLoad()
                    title = "\(name)"
                    view.addSubview(titleLabel)
                    // makeLayout reports constraints Layout refuses as a UI misuse, not silently.
                    makeLayout {
                        _ = try titleLabel.ndl.makeConstraints { make in
                            make.top.leading.equalToSuperview().inset(1)
                        }
                    }
                }
            }

            """
    }

    static func tests(_ name: String, viewless: Bool, headlessUI: Bool = false) -> String {
        let viewCheck =
            headlessUI
            ? """

                    viewController.loadViewIfNeeded()
                    #expect(viewController.title == "\(name)")
            """
            : ""
        let interactorTest =
            viewless
            ? """
                    let interactor = \(name)Interactor()
                    interactor.activate()
                    #expect(interactor.isActive)
                    interactor.deactivate()
                    #expect(!interactor.isActive)
            """
            : """
                    let viewController = \(name)ViewController()
                    let interactor = \(name)Interactor(presenter: viewController)
                    #expect(viewController.listener === interactor)\(viewCheck)
                    interactor.activate()
                    #expect(interactor.isActive)
                    interactor.deactivate()
                    #expect(!interactor.isActive)
            """
        return """
            import RIBs
            import Testing

            @testable import \(name)

            @MainActor
            final class \(name)ListenerMock: \(name)Listener {}

            final class \(name)DependencyMock: \(name)Dependency {}

            @MainActor
            @Suite("\(name)")
            struct \(name)Tests {
                @Test("the interactor activates and deactivates")
                func interactorLifecycle() {
            \(interactorTest)
                }

                @Test("the builder wires router, interactor and listener")
                func builderWiring() throws {
                    let listener = \(name)ListenerMock()
                    let router = \(name)Builder(dependency: \(name)DependencyMock()).build(withListener: listener)
                    let interactor = try #require(router.interactable as? \(name)Interactor)
                    #expect(interactor.listener === listener)
                    #expect(interactor.router === router)
                    let parent = Router(interactor: Interactor())
                    parent.attachChild(router)
                    #expect(interactor.isActive)
                    parent.detachChild(router)
                    #expect(!interactor.isActive)
                }
            }

            """
    }
}
