import Foundation

/// A RIB's dependency-injection scope: it gets what the parent provides through ``dependency``
/// and makes what the RIB and its children need.
///
/// Properties that must be one instance per component use ``shared(__function:_:)``:
///
/// ```swift
/// final class TodoComponent: Component<TodoDependency>, AddTodoDependency {
///     var todoRepository: TodoRepository { dependency.todoRepository }
///     var todoReactor: TodoReactor { shared { TodoReactor(repository: todoRepository) } }
/// }
/// ```
///
/// `shared` is thread-safe, and a shared factory may read another shared property. Components
/// are not `Sendable` by default, so that subclasses need not restate a conformance; a subclass
/// whose own state is thread-safe may declare `@unchecked Sendable` and be read from any task.
open class Component<DependencyType>: Dependency {
    // `sharedInstances` is only touched under `lock`.

    /// What the parent provides.
    public let dependency: DependencyType

    private let lock = NSRecursiveLock()
    private var sharedInstances: [String: Any] = [:]

    /// Creates a component over `dependency`.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }

    /// Returns the one instance of the calling property, making it with `factory` the first time.
    ///
    /// The instance is keyed by the calling property's name (and the type), so call this only
    /// from a computed property's getter. A factory runs once whatever it returns, `nil` included,
    /// as RIBs-iOS's does (its code, compiled and run with Swift 6.3.1, stores the `nil` too).
    ///
    /// The factory runs under the component's lock; it may read other shared properties of the
    /// same component, but must not wait for work on another thread that reads this component.
    public final func shared<T>(__function function: String = #function, _ factory: () throws -> T) rethrows
        -> T
    {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(function)|\(ObjectIdentifier(T.self))"
        if let existing = sharedInstances[key], let instance = existing as? T {
            return instance
        }
        let instance = try factory()
        // `updateValue`, not a subscript assignment: should `T` ever be known as an optional
        // here, assigning its `nil` through the subscript would remove the entry instead.
        sharedInstances.updateValue(instance, forKey: key)
        return instance
    }
}

/// The component of a RIB that needs nothing from its parent.
open class EmptyComponent: EmptyDependency {
    /// Creates an empty component.
    public init() {}
}
