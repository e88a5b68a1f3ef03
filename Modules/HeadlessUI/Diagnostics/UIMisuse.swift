import Logging
import Synchronization

/// A misuse of the view-controller API that UIKit would assert on or quietly get wrong.
/// HeadlessUI reports it through ``HeadlessUIDiagnostics/misuseHandler`` and leaves everything
/// as it was.
public enum UIMisuse: Error, Sendable, Hashable, CustomStringConvertible {
    /// `present` on a controller whose view is not in a window.
    case presentingOutsideWindow(presenter: String)
    /// `present` on a controller that already presents another.
    case alreadyPresenting(presenter: String, presented: String)
    /// A controller that already has a parent or a presenter was presented, pushed or made a
    /// tab.
    case controllerInUse(String)
    /// A navigation controller pushed onto a navigation controller.
    case pushingNavigationController(String)
    /// A tab index outside the tabs.
    case tabIndexOutOfRange(index: Int, count: Int)
    /// A window's root that is not a HeadlessUI ``ViewController``.
    case foreignViewController(String)
    /// A controller's constraints were refused by Layout (see ``ViewController/makeLayout(_:)``).
    case invalidConstraints(controller: String, reason: String)

    /// What went wrong, and what HeadlessUI did instead.
    public var description: String {
        switch self {
        case .presentingOutsideWindow(let presenter):
            "\(presenter) is not in a window, so it cannot present; nothing was presented"
        case .alreadyPresenting(let presenter, let presented):
            "\(presenter) already presents \(presented); dismiss it first. Nothing was presented"
        case .controllerInUse(let controller):
            "\(controller) already has a parent or a presenter; remove it first. Nothing changed"
        case .pushingNavigationController(let controller):
            "\(controller) is a navigation controller and cannot be pushed; nothing was pushed"
        case .tabIndexOutOfRange(let index, let count):
            "tab \(index) does not exist (there are \(count)); the selection did not change"
        case .foreignViewController(let controller):
            "\(controller) is not a HeadlessUI ViewController, so a Window cannot show it"
        case .invalidConstraints(let controller, let reason):
            "\(controller)'s constraints were refused (\(reason)); the rest of its layout stands"
        }
    }
}

/// Where HeadlessUI reports misuse.
public enum HeadlessUIDiagnostics {
    /// Receives every ``UIMisuse``. The default logs it as an error with swift-log, label
    /// `ribcage.headlessui`. Tests bind it to collect reports:
    ///
    /// ```swift
    /// HeadlessUIDiagnostics.$misuseHandler.withValue({ reports.append($0) }) { … }
    /// ```
    @TaskLocal public static var misuseHandler: @Sendable (UIMisuse) -> Void = { misuse in
        logger.error("\(misuse.description)")
    }

    /// Runs `body` with misuse collected instead of sent to ``misuseHandler``, and returns what
    /// it reported, in order. For this package's tests; an app's own tests can bind
    /// ``misuseHandler`` the same way.
    package static func capturingMisuse(_ body: () throws -> Void) rethrows -> [UIMisuse] {
        let reports = Mutex<[UIMisuse]>([])
        try $misuseHandler.withValue({ misuse in reports.withLock { $0.append(misuse) } }) { try body() }
        return reports.withLock { $0 }
    }

    static let logger = Logger(label: "ribcage.headlessui")

    /// Sends `misuse` to ``misuseHandler``; for this package's modules.
    package static func report(_ misuse: UIMisuse) {
        misuseHandler(misuse)
    }
}
