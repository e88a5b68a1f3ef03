/// A misuse of the RIBs API: a mistake in the calling code, not a runtime condition.
///
/// RIBs-iOS asserts on some of these and ignores others. Ribcage reports every one through
/// ``RIBsDiagnostics/programmerErrorHandler`` and then leaves the tree unchanged, so a release
/// build never ends up with a child attached twice.
public enum ProgrammerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `attachChild` with a router that is already a child of this router.
    case childAlreadyAttached(parent: String, child: String)
    /// `detachChild` with a router that is not a child of this router.
    case detachingNonChild(parent: String, child: String)
    /// A componentized builder's factory returned the component of the previous build pass.
    case componentReused(builder: String)
    /// `Workflow.subscribe` before any chain was committed.
    case workflowNotCommitted(workflow: String)
    /// `Workflow.subscribe` a second time; a workflow runs once.
    case workflowAlreadyStarted(workflow: String)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .childAlreadyAttached(let parent, let child):
            "\(parent).attachChild(\(child)): the child is already attached. Detach it first."
        case .detachingNonChild(let parent, let child):
            "\(parent).detachChild(\(child)): the router is not a child of \(parent); nothing was detached."
        case .componentReused(let builder):
            "\(builder): the component builder returned the same component instance as the previous build; "
                + "it must return a new one each time."
        case .workflowNotCommitted(let workflow):
            "\(workflow).subscribe: no step chain was committed; call commit() on the last step first."
        case .workflowAlreadyStarted(let workflow):
            "\(workflow).subscribe: this workflow has already run; a workflow runs once. Create a new one."
        }
    }
}

/// Where RIBs reports ``ProgrammerError``s.
public enum RIBsDiagnostics {
    /// Handles a programmer error. The default prints the error to standard error and, in debug
    /// builds, stops with `assertionFailure`, as RIBs-iOS does.
    ///
    /// It is task-local, so a test can capture errors for its own work without touching others':
    ///
    /// ```swift
    /// RIBsDiagnostics.$programmerErrorHandler.withValue({ errors.append($0) }) {
    ///     router.attachChild(child)
    /// }
    /// ```
    @TaskLocal public static var programmerErrorHandler: @Sendable (ProgrammerError) -> Void = { error in
        printToStandardError("RIBs programmer error: \(error)")
        assertionFailure(error.description)
    }

    static func report(_ error: ProgrammerError) {
        programmerErrorHandler(error)
    }
}

func typeName(of value: Any) -> String {
    String(describing: type(of: value))
}
