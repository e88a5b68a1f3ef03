import Foundation

/// The processes of one session: what a child started with a session of its own (``Shell``
/// under ``Shell/stopsDescendants``) and everything it started in turn, in any process
/// group.
///
/// A process group alone is not enough to stop `swift test`: SwiftPM starts each test process in
/// a group of its own, and on SIGTERM ends without stopping it. A session holds them all, unless
/// one deliberately starts a session of its own (a tmux server, a daemon). Members are found in
/// `/proc`, so this is Linux's; elsewhere a session has no members to find, and only the child's
/// own process group is stopped.
package struct ProcessSession: Sendable {
    /// The session's ID: the process ID of the child that started it.
    package var id: pid_t

    /// A session started by the process `leader`.
    package init(ledBy leader: pid_t) {
        id = leader
    }

    /// The processes in the session now, but for zombies (which have ended and wait to be
    /// reaped). Reads `/proc`; quick, but file reads all the same.
    package func members() -> [pid_t] {
        #if os(Linux)
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: "/proc")
            } catch {
                return []
            }
            return entries.compactMap { entry -> pid_t? in
                guard let pid = pid_t(entry),
                    let stat = FileManager.default.contents(atPath: "/proc/\(entry)/stat"),
                    let fields = Self.fieldsAfterName(String(decoding: stat, as: UTF8.self)),
                    fields.count > 3, fields[0] != "Z", pid_t(fields[3]) == id
                else { return nil }
                return pid
            }
        #else
            return []
        #endif
    }

    /// The process tracing `pid` (`strace -f`, which `ribcage test --cache` runs above
    /// `swift test`), or nil when none is attached.
    package static func tracer(of pid: pid_t) -> pid_t? {
        #if os(Linux)
            guard let status = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return nil }
            let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first {
                $0.hasPrefix("TracerPid:")
            }
            guard
                let tracer = line.flatMap({
                    pid_t($0.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces))
                }),
                tracer != 0
            else { return nil }
            return tracer
        #else
            return nil
        #endif
    }

    /// The fields of a `/proc/PID/stat` line after the process's name, which is in parentheses
    /// and may itself hold spaces and parentheses: state, parent, process group, session, ….
    static func fieldsAfterName(_ line: String) -> [Substring]? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        return line[line.index(after: close)...].split(separator: " ")
    }
}
