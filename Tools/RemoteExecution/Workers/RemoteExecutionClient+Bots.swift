import SwiftProtobuf

extension RemoteExecutionClient {
    /// The Remote Workers API's method `method` of the Bots service, as a gRPC path.
    private static func botsPath(_ method: String) -> String {
        "/google.devtools.remoteworkers.v1test2.Bots/\(method)"
    }

    /// Opens a bot session in the farm named by ``instanceName``; the server names the session
    /// and may already give it leases.
    public func createBotSession(_ session: RemoteWorkers.BotSession) async throws(RemoteExecutionError)
        -> RemoteWorkers.BotSession
    {
        var request = Google_Devtools_Remoteworkers_V1test2_CreateBotSessionRequest()
        request.parent = instanceName
        request.botSession = session
        return try await perform("CreateBotSession") { () async throws(GRPCCallFailure) in
            try await connection.unary(
                Self.botsPath("CreateBotSession"), request, as: RemoteWorkers.BotSession.self,
                timeout: callTimeout)
        }
    }

    /// Reports the bot's status and leases, and returns the session as the server now sees it:
    /// new leases to take, and the ones it cancelled.
    ///
    /// - Parameter timeout: the call's deadline. A server may hold the call open until it has
    ///   work for an idle bot (BuildGrid waits for most of the deadline), so this is also how
    ///   long an idle bot waits for work in one call.
    public func updateBotSession(_ session: RemoteWorkers.BotSession, timeout: Duration)
        async throws(RemoteExecutionError) -> RemoteWorkers.BotSession
    {
        var request = Google_Devtools_Remoteworkers_V1test2_UpdateBotSessionRequest()
        request.name = session.name
        request.botSession = session
        request.updateMask = Google_Protobuf_FieldMask(protoPaths: ["status", "leases"])
        return try await perform("UpdateBotSession") { () async throws(GRPCCallFailure) in
            try await connection.unary(
                Self.botsPath("UpdateBotSession"), request, as: RemoteWorkers.BotSession.self,
                timeout: timeout)
        }
    }
}
