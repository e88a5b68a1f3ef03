/// The read side of a ``StreamSubject``: an `AsyncSequence` that can also be observed
/// synchronously.
///
/// RIBs exposes its state as `SubjectStream`s: ``Interactor/isActiveStream``,
/// ``Router/lifecycle``, ``Worker/isStartedStream`` and ``LeakDetector/status``.
///
/// ```swift
/// for await isActive in interactor.isActiveStream {
///     print("active:", isActive)
/// }
/// ```
public struct SubjectStream<Element: Sendable>: AsyncSequence, Sendable {
    /// Iterates the values sent after the iterator was made (and the current value first, for a
    /// replaying subject). It ends when the subject finishes.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Element>.Iterator

        /// The next value, or `nil` once the subject has finished.
        public mutating func next() async -> Element? {
            await base.next()
        }

        /// The next value, or `nil` once the subject has finished.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await base.next(isolation: actor)
        }
    }

    let subject: StreamSubject<Element>

    /// Subscribes and returns an iterator. The subscription starts now, not at the first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: subject.makeIteratorStream().makeAsyncIterator())
    }

    /// Observes values synchronously, on the thread that sends them (the main actor, for RIB
    /// types).
    ///
    /// A replaying stream calls `receiveValue` with its current value before returning.
    ///
    /// - Parameters:
    ///   - receiveValue: Called with every value.
    ///   - receiveCompletion: Called once when the subject finishes, or at once if it already has.
    /// - Returns: A handle; cancel it to stop observing. Dropping it does *not* cancel.
    @discardableResult
    public func sink(
        receiveValue: @escaping @Sendable (Element) -> Void,
        receiveCompletion: (@Sendable () -> Void)? = nil
    ) -> any Cancellable {
        subject.addSink(receiveValue, completion: receiveCompletion)
    }

    /// The current value of a replaying stream; `nil` for a publishing one.
    public var currentValue: Element? { subject.value }
}
