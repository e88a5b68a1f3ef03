/// What a RIB needs from its parent. A RIB declares a protocol refining `Dependency` that lists
/// what it needs; the parent's component conforms to it.
public protocol Dependency: AnyObject {}

/// The dependency of a RIB that needs nothing from its parent, such as the root.
public protocol EmptyDependency: Dependency {}
