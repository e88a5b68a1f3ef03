extension AsyncThrowingStream where Failure == any Error, Element: Sendable {
    /// A stream of `elements`, then the end. ReactorKit's `.just` and `.from`.
    public static func just(_ elements: Element...) -> Self {
        AsyncThrowingStream { continuation in
            for element in elements { continuation.yield(element) }
            continuation.finish()
        }
    }

    /// A stream that ends at once. ReactorKit's `.empty()`.
    public static func empty() -> Self {
        AsyncThrowingStream { $0.finish() }
    }

    /// A stream fed by `work`, which emits mutations with `send` as it goes, e.g. one before and
    /// one after a network call. A thrown error ends the stream with that error.
    public static func run(
        _ work: @escaping @Sendable (_ send: @Sendable (Element) -> Void) async throws -> Void
    ) -> Self {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await work { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
