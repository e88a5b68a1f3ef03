import Foundation

/// The processes of one session: what a child started with a session of its own (``Shell``
/// under ``Shell/stopsDescendants``) and everything it started in turn, in any process
/// group.
///
/// A process group alone is not enough to stop `swift test`: SwiftPM starts each test process in
/// a group of its own, and on SIGTERM ends without stopping it. A session holds them all, unless
/// one deliberately starts a session of its own (a tmux server, a daemon). Members are found in
/// `/proc` (``ProcessTable``), so this is Linux's; elsewhere a session has no members to find,
/// and only the child's own process group is stopped.
package struct ProcessSession: Sendable {
    /// The session's ID: the process ID of the child that started it.
    package var id: pid_t

    /// A session started by the process `leader`.
    package init(ledBy leader: pid_t) {
        id = leader
    }

    /// The processes in the session now, but for zombies (which have ended and wait to be
    /// reaped).
    package func members() -> [pid_t] {
        ProcessTable.current().members(ofSession: id)
    }
}
