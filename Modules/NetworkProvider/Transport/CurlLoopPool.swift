import Synchronization

/// The multi handles a ``CurlTransport`` spreads its transfers over, made at the first request.
///
/// Making them can fail (no descriptor or memory left); the pool then keeps the loops it did
/// make and tries again for the others at the next request, so a process that was short of
/// descriptors for a moment is not left with a broken transport. A pool's loops end when the
/// pool goes (the process's shared pool never does), each once its last transfer is over.
final class CurlLoopPool: Sendable {
    private let count: Int
    private let threadName: String
    private let connectionsPerLoop: Int
    private let made = Mutex<[CurlMultiLoop]>([])

    /// A pool of `count` loops, at least one, whose threads are called `threadName 0`, …, each
    /// keeping at most `connectionsPerLoop` connections.
    init(count: Int, threadName: String, connectionsPerLoop: Int) {
        self.count = max(1, count)
        self.threadName = threadName
        self.connectionsPerLoop = connectionsPerLoop
    }

    deinit {
        for loop in made.withLock({ $0 }) { loop.retire() }
    }

    /// Every loop of the pool, made now if they are not yet.
    func loops() throws(TransportSetupFailure) -> [CurlMultiLoop] {
        try made.withLock { (made) throws(TransportSetupFailure) in
            while made.count < count {
                made.append(
                    try CurlMultiLoop(
                        threadName: "\(threadName) \(made.count)", connectionsPerLoop: connectionsPerLoop))
            }
            return made
        }
    }

    /// The loops made so far, without making any: for tests that wait for them to end.
    var loopsMade: [CurlMultiLoop] { made.withLock { $0 } }
}
