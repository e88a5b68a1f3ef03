/// What became of one lease's action on a bot.
public enum LeaseOutcome: Sendable, Equatable {
    /// The action ran, whatever its exit code; `timedOut` when it was stopped at its own
    /// timeout, `result` then holding what it had written.
    case ran(REAPI.ActionResult, timedOut: Bool)
    /// The bot could not run the action (its runner failed, an input could not be fetched): a
    /// fault of this bot, not of the action, so the scheduler may give it to another.
    case botFailed(String)
}

/// Runs the actions a ``RemoteWorker`` takes: stages the input root, runs the command, uploads
/// the outputs to the server's CAS and returns their result.
public protocol LeaseRunner: Sendable {
    /// Runs `action`, whose Action message is stored under `digest`. Cancellation means the
    /// server took the lease back: stop the command and return soon.
    func run(_ action: REAPI.Action, digest: BlobDigest) async -> LeaseOutcome
}
