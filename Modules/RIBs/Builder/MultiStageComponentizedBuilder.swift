/// A builder whose build happens in stages: early stages read ``componentForCurrentBuildPass``
/// (to hand out parts of it, say), and ``finalStageBuild(withDynamicDependency:)`` finishes the
/// pass. All stages of one pass share one component; the next pass gets a new one.
@MainActor
open class MultiStageComponentizedBuilder<Component: AnyObject, Router, DynamicBuildDependency>: Buildable {
    private let componentBuilder: () -> Component
    private var currentPassComponent: Component?
    private weak var lastComponent: Component?

    /// Creates a builder that makes each pass's component with `componentBuilder`, which must
    /// return a new instance every time.
    public init(componentBuilder: @escaping () -> Component) {
        self.componentBuilder = componentBuilder
    }

    /// The component of the current build pass, made on first use and kept until the pass ends.
    public final var componentForCurrentBuildPass: Component {
        if let currentPassComponent { return currentPassComponent }
        let component = componentBuilder()
        if let lastComponent, lastComponent === component {
            RIBsDiagnostics.report(.componentReused(builder: typeName(of: self)))
        }
        lastComponent = component
        currentPassComponent = component
        return component
    }

    /// Builds the router from the current pass's component and ends the pass.
    public final func finalStageBuild(withDynamicDependency dynamicDependency: DynamicBuildDependency)
        -> Router
    {
        defer { currentPassComponent = nil }
        return finalStageBuild(with: componentForCurrentBuildPass, dynamicDependency)
    }

    /// Builds the router. Subclasses must override this.
    ///
    /// - Precondition: Overridden; the base implementation is a programmer error and stops.
    open func finalStageBuild(with component: Component, _ dynamicDependency: DynamicBuildDependency)
        -> Router
    {
        fatalError("\(typeName(of: self)) must override finalStageBuild(with:_:).")
    }
}

/// A ``MultiStageComponentizedBuilder`` without a dynamic dependency.
@MainActor
open class SimpleMultiStageComponentizedBuilder<Component: AnyObject, Router>:
    MultiStageComponentizedBuilder<Component, Router, Void>
{
    /// Forwards to ``finalStageBuild(with:)``.
    public final override func finalStageBuild(with component: Component, _ dynamicDependency: Void) -> Router
    {
        finalStageBuild(with: component)
    }

    /// Builds the router. Subclasses must override this.
    ///
    /// - Precondition: Overridden; the base implementation is a programmer error and stops.
    open func finalStageBuild(with component: Component) -> Router {
        fatalError("\(typeName(of: self)) must override finalStageBuild(with:).")
    }

    /// Builds the router from the current pass's component and ends the pass.
    public final func finalStageBuild() -> Router {
        finalStageBuild(withDynamicDependency: ())
    }
}
