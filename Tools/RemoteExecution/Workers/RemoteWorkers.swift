/// Short names for the generated messages of the Remote Workers API (`google.devtools
/// .remoteworkers.v1test2`) that a bot sends and reads: a scheduler such as BuildGrid hands a
/// REAPI action to a bot as a lease of its bot session.
public enum RemoteWorkers {
    /// A bot's time in contact with the server, and the leases it holds.
    public typealias BotSession = Google_Devtools_Remoteworkers_V1test2_BotSession
    /// Whether a bot takes work.
    public typealias BotStatus = Google_Devtools_Remoteworkers_V1test2_BotStatus
    /// One piece of work the server gave a bot.
    public typealias Lease = Google_Devtools_Remoteworkers_V1test2_Lease
    /// Pending (the server's offer), active (the bot's acceptance), completed, cancelled.
    public typealias LeaseState = Google_Devtools_Remoteworkers_V1test2_LeaseState
    /// What a bot offers: its devices and their properties.
    public typealias Worker = Google_Devtools_Remoteworkers_V1test2_Worker
    /// One device of a worker; the first runs the actions.
    public typealias Device = Google_Devtools_Remoteworkers_V1test2_Device
}
