/// The marker protocol of RIB builders.
@MainActor
public protocol Buildable: AnyObject {}

/// A builder that holds the dependency its RIB is built from.
///
/// A RIB's builder declares a `build(withListener:)` method that makes the component, the
/// interactor, the view controller and the router, and wires them.
@MainActor
open class Builder<DependencyType>: Buildable {
    /// What the parent provides.
    public let dependency: DependencyType

    /// Creates a builder over `dependency`.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }
}
