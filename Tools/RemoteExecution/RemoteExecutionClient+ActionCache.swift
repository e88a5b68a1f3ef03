import Foundation
import SwiftProtobuf

/// The action cache: the result an action left, by its digest.
extension RemoteExecutionClient {
    /// The cached result of `action`, or nil when the cache has none.
    public func cachedResult(of action: BlobDigest) async throws(RemoteExecutionError) -> REAPI.ActionResult?
    {
        var request = Build_Bazel_Remote_Execution_V2_GetActionResultRequest()
        request.instanceName = instanceName
        request.actionDigest = action.message
        return try await perform("GetActionResult") {
            () async throws(GRPCCallFailure) -> REAPI.ActionResult? in
            do throws(GRPCCallFailure) {
                return try await connection.unary(
                    Self.path("ActionCache", "GetActionResult"), request, as: REAPI.ActionResult.self,
                    timeout: callTimeout)
            } catch {
                // The action cache's answer for "no entry".
                if case .status(let status) = error, status.code == GRPCStatus.notFound { return nil }
                throw error
            }
        }
    }

    /// Stores `result` as the result of `action`.
    public func storeResult(_ result: REAPI.ActionResult, of action: BlobDigest)
        async throws(RemoteExecutionError)
    {
        var request = Build_Bazel_Remote_Execution_V2_UpdateActionResultRequest()
        request.instanceName = instanceName
        request.actionDigest = action.message
        request.actionResult = result
        _ = try await perform("UpdateActionResult") { () async throws(GRPCCallFailure) in
            try await connection.unary(
                Self.path("ActionCache", "UpdateActionResult"), request, as: REAPI.ActionResult.self,
                timeout: callTimeout)
        }
    }

    /// ``cachedResult(of:)`` in its wire form, for a caller that keeps results as bytes (the
    /// test cache, whose local folder and HTTP server hold the same `ActionResult`s).
    public func cachedResultBytes(of action: BlobDigest) async throws(RemoteExecutionError) -> Data? {
        guard let result = try await cachedResult(of: action) else { return nil }
        do {
            return try result.serializedBytes()
        } catch {
            throw .unsupported("an ActionResult that cannot be serialized again (\(error))")
        }
    }

    /// Stores the `ActionResult` whose wire form is `serialized` as the result of `action`.
    ///
    /// - Throws: ``RemoteExecutionError/unreadableUpload(_:)`` when `serialized` is not an
    ///   `ActionResult`, before anything is sent.
    public func storeResult(serialized: Data, of action: BlobDigest) async throws(RemoteExecutionError) {
        let result: REAPI.ActionResult
        do {
            result = try REAPI.ActionResult(serializedBytes: serialized)
        } catch {
            throw .unreadableUpload("\(serialized.count) bytes that are not an ActionResult (\(error))")
        }
        try await storeResult(result, of: action)
    }
}
