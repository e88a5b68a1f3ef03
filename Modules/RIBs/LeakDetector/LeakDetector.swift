import Foundation

/// Whether the leak detector has checks pending.
public enum LeakDetectionStatus: Sendable, Equatable {
    /// At least one expectation is waiting for its deadline.
    case inProgress
    /// No expectation is pending.
    case didComplete
}

/// The default deadlines, in seconds, of RIBs-iOS.
public enum LeakDefaultExpectationTime {
    /// How long an object has to deallocate after its owner went away.
    public static let deallocation: Double = 1.0
    /// How long a view has to leave the screen after its interactor deactivated.
    public static let viewDisappear: Double = 5.0
}

/// A pending leak check, which can be called off.
@MainActor
public protocol LeakDetectionHandle: AnyObject {
    /// Calls the check off. The pending count drops once, however often this is called.
    func cancel()
}

/// A leak that the detector found.
public struct Leak: Sendable, Equatable, CustomStringConvertible {
    /// What leaked.
    public enum Kind: Sendable, Equatable {
        /// An object outlived its deadline.
        case deallocation
        /// A view controller was still on screen after its interactor deactivated.
        case viewDisappearance
    }

    /// What leaked.
    public var kind: Kind
    /// The leaked object's type and address, e.g.
    /// `TodoInteractor ObjectIdentifier(0x600000c04000)`.
    public var object: String
    /// The leaked object's identity, to match it against an object still in hand.
    public var objectIdentifier: ObjectIdentifier

    /// A message for a person.
    public var description: String {
        switch kind {
        case .deallocation:
            "\(object) has leaked: it should have been deallocated by now. Look for a retain cycle."
        case .viewDisappearance:
            "\(object)'s appearance has leaked: its interactor is inactive but it is still on screen."
        }
    }
}

/// Checks that RIBs objects go away when they should, as RIBs-iOS's leak detector does.
///
/// Routers, interactors and view controllers ask it to expect their collaborators to deallocate.
/// When an expectation's deadline passes and the object is still alive, the detector reports a
/// ``Leak``: it records it in ``leaks``, prints it, and, in debug builds, stops with
/// `assertionFailure` as RIBs-iOS does. Set `DISABLE_LEAK_DETECTION=yes` (or `true`) to only
/// print.
///
/// Deadlines are *pause-aware*: time advances in steps of at most 33 ms, so stopping in a
/// debugger does not produce false leaks. The detector needs no run loop; a single task ticks
/// while checks are pending.
///
/// Tests install their own instance with ``setInstance(_:)``, as in RIBs-iOS. (It is a global
/// rather than a task-local because the checks start in `deinit`, which sees no task-locals.)
@MainActor
public final class LeakDetector {
    /// The detector RIBs types use.
    public private(set) static var instance = LeakDetector()

    /// Replaces ``instance``, typically with one made with `reportsLeaksAsAssertions: false`, so
    /// that a test can provoke leaks and read ``leaks``.
    public static func setInstance(_ detector: LeakDetector) {
        instance = detector
    }

    /// Pending checks: the current value first, then each change.
    public var status: SubjectStream<LeakDetectionStatus> { statusSubject.stream }

    /// The leaks found so far, oldest first.
    public private(set) var leaks: [Leak] = []

    /// The number of checks waiting for their deadline.
    public var pendingCount: Int { pending.count }

    private let statusSubject = StreamSubject<LeakDetectionStatus>(replaying: .didComplete)
    private var pending: [Expectation] = []  // sorted by deadline
    private var virtualNow: Double = 0

    /// Seconds on the detector's pause-aware clock since it was made: at most 33 ms a tick,
    /// so a test can tell "at the next tick" from "at the deadline" whatever the machine's load.
    package var elapsedTime: Double { virtualNow }
    private var ticker: Task<Void, Never>?
    private let reportsAsAssertions: Bool
    private let isDisabled: Bool

    /// Creates a detector.
    ///
    /// - Parameters:
    ///   - reportsLeaksAsAssertions: Stop with `assertionFailure` on a leak in debug builds, as
    ///     RIBs-iOS does. Tests that provoke leaks pass `false`.
    ///   - environment: Read for `DISABLE_LEAK_DETECTION`.
    public init(
        reportsLeaksAsAssertions: Bool = true,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.reportsAsAssertions = reportsLeaksAsAssertions
        let flag = environment["DISABLE_LEAK_DETECTION"]?.lowercased()
        self.isDisabled = flag == "yes" || flag == "true"
    }

    /// Expects `object` to be deallocated within `time` seconds.
    ///
    /// - Returns: A handle that calls the check off.
    @discardableResult
    public func expectDeallocate(
        object: AnyObject, inTime time: Double = LeakDefaultExpectationTime.deallocation
    ) -> any LeakDetectionHandle {
        schedule(
            Expectation(kind: .deallocation, object: object, deadline: virtualNow + time, detector: self))
    }

    /// Expects `viewController` to be off screen within `time` seconds.
    ///
    /// - Returns: A handle that calls the check off.
    @discardableResult
    public func expectViewControllerDisappear(
        viewController: any ViewControllable, inTime time: Double = LeakDefaultExpectationTime.viewDisappear
    ) -> any LeakDetectionHandle {
        schedule(
            Expectation(
                kind: .viewDisappearance, object: viewController, deadline: virtualNow + time, detector: self)
        )
    }

    /// Waits until no check is pending. A check whose object has been deallocated completes at
    /// the next tick (every 11 ms), not at its deadline.
    public func waitUntilComplete() async {
        for await status in status where status == .didComplete { return }
    }

    private func schedule(_ expectation: Expectation) -> Expectation {
        let index = pending.lastIndex { $0.deadline <= expectation.deadline }.map { $0 + 1 } ?? 0
        pending.insert(expectation, at: index)
        if pending.count == 1 { statusSubject.send(.inProgress) }
        startTickerIfNeeded()
        return expectation
    }

    fileprivate func cancel(_ expectation: Expectation) {
        guard let index = pending.firstIndex(where: { $0 === expectation }) else { return }
        pending.remove(at: index)
        if pending.isEmpty { statusSubject.send(.didComplete) }
    }

    private func startTickerIfNeeded() {
        guard ticker == nil else { return }
        ticker = Task { [weak self] in
            let clock = ContinuousClock()
            var last = clock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(11))
                guard let self else { return }
                let now = clock.now
                // Pause-aware: a long gap (a breakpoint, a suspended machine) counts as one frame.
                let step = min(now - last, .milliseconds(33))
                last = now
                self.advance(by: Double(step.components.attoseconds) / 1e18 + Double(step.components.seconds))
                if self.pending.isEmpty {
                    self.ticker = nil
                    return
                }
            }
        }
    }

    private func advance(by seconds: Double) {
        virtualNow += seconds
        // A check whose object is gone is met, whatever its deadline: finish it now, so that
        // waitUntilComplete (an app quitting) does not wait out the view's five seconds.
        let before = pending.count
        pending.removeAll { $0.object == nil }
        if before > 0 && pending.isEmpty {
            statusSubject.send(.didComplete)
            return
        }
        let dueCount = pending.firstIndex { $0.deadline > virtualNow } ?? pending.count
        guard dueCount > 0 else { return }
        let due = pending.prefix(dueCount)
        pending.removeFirst(dueCount)
        for expectation in due { check(expectation) }
        if pending.isEmpty { statusSubject.send(.didComplete) }
    }

    private func check(_ expectation: Expectation) {
        guard let object = expectation.object else { return }
        let identifier = ObjectIdentifier(object)
        let name = "\(typeName(of: object)) \(identifier.debugDescription)"
        switch expectation.kind {
        case .deallocation:
            report(Leak(kind: .deallocation, object: name, objectIdentifier: identifier))
        case .viewDisappearance:
            guard let viewController = object as? any ViewControllable, viewController.isPresentedInWindow
            else {
                return
            }
            report(Leak(kind: .viewDisappearance, object: name, objectIdentifier: identifier))
        }
    }

    private func report(_ leak: Leak) {
        leaks.append(leak)
        printToStandardError("RIBs leak: \(leak)")
        if reportsAsAssertions && !isDisabled { assertionFailure(leak.description) }
    }
}

/// One pending check.
@MainActor
private final class Expectation: LeakDetectionHandle {
    let kind: Leak.Kind
    weak var object: AnyObject?
    let deadline: Double
    weak var detector: LeakDetector?

    init(kind: Leak.Kind, object: AnyObject, deadline: Double, detector: LeakDetector) {
        self.kind = kind
        self.object = object
        self.deadline = deadline
        self.detector = detector
    }

    func cancel() {
        detector?.cancel(self)
        detector = nil
    }
}
