/// An object a workflow step acts on, usually an interactor that exposes the actions a deep
/// link needs (`RootActionableItem`, `TodoActionableItem`, …).
///
/// When an actionable item is also an ``InteractorScope``, each step waits until it is active
/// before acting on it, so a step never drives a RIB that is not attached yet.
@MainActor
public protocol ActionableItem: AnyObject {}
