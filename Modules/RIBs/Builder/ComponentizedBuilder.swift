/// A builder that makes a new component for every build, then builds the router from it.
///
/// The dynamic dependencies are values known only at build time: `DynamicComponentDependency`
/// goes into the component, `DynamicBuildDependency` into the build. Subclasses override
/// ``build(with:_:)``.
@MainActor
open class ComponentizedBuilder<
    Component: AnyObject, Router, DynamicBuildDependency, DynamicComponentDependency
>:
    Buildable
{
    private let componentBuilder: (DynamicComponentDependency) -> Component
    private weak var lastComponent: Component?

    /// Creates a builder that makes each build's component with `componentBuilder`, which must
    /// return a new instance every time.
    public init(componentBuilder: @escaping (DynamicComponentDependency) -> Component) {
        self.componentBuilder = componentBuilder
    }

    /// Makes a new component and builds the router from it.
    public final func build(
        withDynamicBuildDependency dynamicBuildDependency: DynamicBuildDependency,
        dynamicComponentDependency: DynamicComponentDependency
    ) -> Router {
        build(
            withDynamicBuildDependency: dynamicBuildDependency,
            dynamicComponentDependency: dynamicComponentDependency
        ).1
    }

    /// Makes a new component and builds the router from it, returning both.
    public final func build(
        withDynamicBuildDependency dynamicBuildDependency: DynamicBuildDependency,
        dynamicComponentDependency: DynamicComponentDependency
    ) -> (Component, Router) {
        let component = componentBuilder(dynamicComponentDependency)
        // A component is a DI scope; sharing it between two RIBs would share their `shared { }`
        // instances. That is a programmer error (RIBs-iOS asserts).
        if let lastComponent, lastComponent === component {
            RIBsDiagnostics.report(.componentReused(builder: typeName(of: self)))
        }
        lastComponent = component
        return (component, build(with: component, dynamicBuildDependency))
    }

    /// Builds the router from a fresh component. Subclasses must override this.
    ///
    /// - Precondition: Overridden; the base implementation is a programmer error and stops.
    open func build(with component: Component, _ dynamicBuildDependency: DynamicBuildDependency) -> Router {
        fatalError("\(typeName(of: self)) must override build(with:_:).")
    }
}

/// A ``ComponentizedBuilder`` without dynamic dependencies.
@MainActor
open class SimpleComponentizedBuilder<Component: AnyObject, Router>: ComponentizedBuilder<
    Component, Router, Void, Void
>
{
    /// Creates a builder that makes each build's component with `componentBuilder`.
    public init(componentBuilder: @escaping () -> Component) {
        super.init(componentBuilder: { _ in componentBuilder() })
    }

    /// Forwards to ``build(with:)``.
    public final override func build(with component: Component, _ dynamicBuildDependency: Void) -> Router {
        build(with: component)
    }

    /// Builds the router from a fresh component. Subclasses must override this.
    ///
    /// - Precondition: Overridden; the base implementation is a programmer error and stops.
    open func build(with component: Component) -> Router {
        fatalError("\(typeName(of: self)) must override build(with:).")
    }

    /// Makes a new component and builds the router from it.
    public final func build() -> Router {
        build(withDynamicBuildDependency: (), dynamicComponentDependency: ())
    }
}
