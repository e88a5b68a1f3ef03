/// What the app is still doing in the background: reactor actions on their way to the screen,
/// requests in flight. A scripted run waits for ``waitUntilIdle()`` before it draws, so that
/// every frame shows the settled result of its command.
@MainActor
public final class ActivityTracker {
    /// How many activities are under way.
    public private(set) var count = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a tracker with nothing under way.
    public init() {}

    /// Whether nothing is under way.
    public var isIdle: Bool { count == 0 }

    /// Marks one activity begun; pair it with ``end()``.
    public func begin() {
        count += 1
    }

    /// Marks one activity ended. Ending more than were begun is ignored.
    public func end() {
        guard count > 0 else { return }
        count -= 1
        if count == 0 {
            let resumed = waiters
            waiters = []
            for waiter in resumed { waiter.resume() }
        }
    }

    /// Returns when nothing is under way.
    public func waitUntilIdle() async {
        guard count > 0 else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
