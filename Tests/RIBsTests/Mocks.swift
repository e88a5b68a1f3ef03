import RIBs
import Synchronization
import Testing

/// An interactor that records its callbacks, with the active state each one saw.
@MainActor
class InteractorMock: Interactor {
    var events: [String] = []
    var didBecomeActiveCount = 0
    var willResignActiveCount = 0

    override func didBecomeActive() {
        super.didBecomeActive()
        didBecomeActiveCount += 1
        events.append("didBecomeActive(isActive: \(isActive))")
    }

    override func willResignActive() {
        super.willResignActive()
        willResignActiveCount += 1
        events.append("willResignActive(isActive: \(isActive))")
    }
}

/// An ``Interactable`` that is not an ``Interactor``, like RIBs-iOS's `InteractableMock`: it
/// counts the calls it gets and changes state only when the test sets ``isActive``.
@MainActor
final class InteractableMock: Interactable {
    private let subject = StreamSubject<Bool>(replaying: false)
    var activateCallCount = 0
    var deactivateCallCount = 0

    var isActive = false {
        didSet { subject.send(isActive) }
    }

    var isActiveStream: SubjectStream<Bool> { subject.stream }

    func activate() { activateCallCount += 1 }
    func deactivate() { deactivateCallCount += 1 }
}

/// A view controller stand-in whose on-screen state the test sets.
@MainActor
final class ViewControllerMock: ViewControllable {
    var isPresentedInWindow = false
}

/// A window stand-in.
@MainActor
final class WindowMock: WindowControllable {
    var rootViewController: (any ViewControllable)?
    var isKeyWindow = false

    func setRootViewController(_ viewController: any ViewControllable) {
        rootViewController = viewController
    }

    func makeKeyAndVisible() {
        isKeyWindow = true
    }
}

/// A plain router over an ``InteractorMock``.
@MainActor
final class TestRouter: Router<InteractorMock> {
    var didLoadCount = 0
    init(_ interactor: InteractorMock = InteractorMock()) { super.init(interactor: interactor) }
    override func didLoad() {
        super.didLoad()
        didLoadCount += 1
    }
}

/// Collects values from synchronous callbacks that may be called from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

/// Runs `body` with programmer errors captured instead of asserting, and returns them.
@MainActor
func capturingProgrammerErrors(_ body: () -> Void) -> [ProgrammerError] {
    let recorder = Recorder<ProgrammerError>()
    RIBsDiagnostics.$programmerErrorHandler.withValue({ recorder.append($0) }) { body() }
    return recorder.values
}

/// Installs, once per test process, a leak detector that records leaks instead of asserting, so
/// that objects a test keeps alive on purpose never stop the process. Tests find their own leaks
/// in it by object identity, since suites run in parallel.
struct RecordingLeakDetector: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    @MainActor static let shared: LeakDetector = {
        let detector = LeakDetector(reportsLeaksAsAssertions: false, environment: [:])
        LeakDetector.setInstance(detector)
        return detector
    }()

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        _ = await Self.shared
        try await function()
    }
}

extension Trait where Self == RecordingLeakDetector {
    /// See ``RecordingLeakDetector``.
    static var recordingLeakDetector: RecordingLeakDetector { RecordingLeakDetector() }
}

extension LeakDetector {
    /// The leaks found for `object`.
    func leaks(of object: AnyObject) -> [Leak] {
        leaks.filter { $0.objectIdentifier == ObjectIdentifier(object) }
    }
}

/// Takes the next value from an iterator, failing the test if the stream ended instead.
func nextValue<I: AsyncIteratorProtocol>(
    _ iterator: inout I, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> I.Element where I.Element: Sendable {
    let value = try await iterator.next()
    return try #require(value, "the stream ended before sending a value", sourceLocation: sourceLocation)
}

/// Waits until `detector` has reported a leak of `object`, or has no check left pending, and
/// returns its leaks. The detector's pause-aware clock moves at most 33 ms a tick, so on a loaded
/// machine (every suite of `swift test` sharing the main actor) its five seconds can take
/// minutes of wall time: the wait follows the detector, not the wall clock. `limit` only stops a
/// detector that never finishes.
@MainActor
func waitForLeaks(
    of object: AnyObject, in detector: LeakDetector, limit: Duration = .seconds(600)
) async -> [Leak] {
    let deadline = ContinuousClock.now + limit
    while detector.leaks(of: object).isEmpty && detector.pendingCount > 0 && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(20))
    }
    return detector.leaks(of: object)
}
