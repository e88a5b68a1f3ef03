import SwiftProtobuf

/// Execution: an action run by the server, or answered from its action cache.
extension RemoteExecutionClient {
    /// What an Execute returned: the action's result, and whether the server took it from its
    /// action cache rather than running the action.
    public struct Execution: Sendable {
        /// The action's outputs and exit code.
        public var result: REAPI.ActionResult
        /// Whether the server answered from its action cache instead of running the action.
        public var cachedResult: Bool
        /// The server's words about the run, if any.
        public var message: String
        /// Whether the action ran past its own timeout and was stopped: ``result`` then holds
        /// what it had written, as REAPI allows.
        public var actionTimedOut = false

        /// An execution that ended with `result`: from the cache, or run (and maybe stopped at
        /// its timeout).
        public init(
            result: REAPI.ActionResult, cachedResult: Bool, message: String, actionTimedOut: Bool = false
        ) {
            self.result = result
            self.cachedResult = cachedResult
            self.message = message
            self.actionTimedOut = actionTimedOut
        }
    }

    /// Runs `action` (its Action, Command and input root already uploaded) and waits until the
    /// server reports it done. A result from the action cache comes back the same way, with
    /// ``Execution/cachedResult`` set, unless `skipCacheLookup`. A command that exits non-zero is
    /// a result (``REAPI/ActionResult/exitCode``), not an error, and so is one the worker stopped
    /// at the action's timeout (``Execution/actionTimedOut``).
    ///
    /// - Parameter timeout: how long to wait for the whole execution, queueing included; give
    ///   the action's own timeout and a margin. Nil waits as long as the connection lives (its
    ///   PINGs still end it when the server vanishes).
    public func execute(_ action: BlobDigest, skipCacheLookup: Bool = false, timeout: Duration? = nil)
        async throws(RemoteExecutionError)
        -> Execution
    {
        var request = Build_Bazel_Remote_Execution_V2_ExecuteRequest()
        request.instanceName = instanceName
        request.actionDigest = action.message
        request.skipCacheLookup = skipCacheLookup
        request.digestFunction = .sha256
        var operations = try await perform("Execute") { () async throws(GRPCCallFailure) in
            try await connection.serverStreaming(
                Self.path("Execution", "Execute"), request, as: Google_Longrunning_Operation.self,
                timeout: timeout)
        }
        // A server may end the stream before the operation is done (it restarts its streams
        // now and then); REAPI's answer is to wait on the operation by its name.
        var waits = 0
        while operations.contains(where: \.done) == false, let name = operations.last?.name, !name.isEmpty,
            waits < Self.maximumWaits
        {
            waits += 1
            var wait = Build_Bazel_Remote_Execution_V2_WaitExecutionRequest()
            wait.name = name
            operations = try await perform("WaitExecution") { () async throws(GRPCCallFailure) in
                try await connection.serverStreaming(
                    Self.path("Execution", "WaitExecution"), wait, as: Google_Longrunning_Operation.self,
                    timeout: timeout)
            }
        }
        guard let operation = operations.first(where: \.done) else {
            throw .connectionLost(
                call: "Execute",
                reason: "the operation stream ended \(waits + 1) times before the action was done")
        }
        switch operation.result {
        case .error(let status):
            throw .rejected(call: "Execute", code: GRPCStatus.name(of: status.code), message: status.message)
        case .response(let any):
            let response: Build_Bazel_Remote_Execution_V2_ExecuteResponse
            do {
                response = try Build_Bazel_Remote_Execution_V2_ExecuteResponse(unpackingAny: any)
            } catch {
                throw .rejected(call: "Execute", code: "invalidResponse", message: "\(error)")
            }
            if response.status.code == GRPCStatus.deadlineExceeded {
                return Execution(
                    result: response.result, cachedResult: false,
                    message: [response.status.message, response.message].filter { !$0.isEmpty }.joined(
                        separator: "; "), actionTimedOut: true)
            }
            guard response.status.code == 0 else {
                throw .rejected(
                    call: "Execute", code: GRPCStatus.name(of: response.status.code),
                    message: response.status.message)
            }
            return Execution(
                result: response.result, cachedResult: response.cachedResult, message: response.message)
        case nil:
            throw .rejected(
                call: "Execute", code: "invalidResponse", message: "a done operation with no result")
        }
    }

    /// How many times an Execute whose stream ended early is waited on again by name.
    static let maximumWaits = 10
}
