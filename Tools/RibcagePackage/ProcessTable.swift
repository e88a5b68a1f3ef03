import Foundation

/// The processes of this machine at one moment, as `/proc` lists them: each one's parent,
/// process group and session. Zombies (ended, waiting to be reaped) are left out: they run
/// nothing any more, and a signal does nothing to them.
///
/// A process can end, or start, just after the table is read, and one that ends while it is
/// read is left out: callers that act on a process (send it a signal) read again until what they
/// wait for holds. Reading `/proc` is quick but is file reads all the same: call it off the
/// cooperative pool (``DedicatedThread``) in a loop. The table is Linux's; elsewhere it is empty.
package struct ProcessTable: Sendable {
    /// One process, from its `/proc/PID/stat`.
    package struct Process: Sendable, Equatable {
        package var id: pid_t
        package var parent: pid_t
        package var processGroup: pid_t
        package var session: pid_t

        package init(id: pid_t, parent: pid_t, processGroup: pid_t, session: pid_t) {
            self.id = id
            self.parent = parent
            self.processGroup = processGroup
            self.session = session
        }
    }

    package var processes: [Process]

    package init(_ processes: [Process]) {
        self.processes = processes
    }

    /// The processes running now. Empty when `/proc` cannot be listed (not Linux, or a sandbox
    /// without it): no process is found, which each caller's own documentation says the effect
    /// of.
    package static func current() -> ProcessTable {
        #if os(Linux)
            let entries: [String]
            do {
                entries = try FileManager.default.contentsOfDirectory(atPath: "/proc")
            } catch {
                return ProcessTable([])
            }
            return ProcessTable(entries.compactMap { entry in pid_t(entry).flatMap { process($0) } })
        #else
            return ProcessTable([])
        #endif
    }

    /// Whether `pid` runs now: it exists and is not a zombie.
    package static func isRunning(_ pid: pid_t) -> Bool {
        process(pid) != nil
    }

    /// The processes in the session `session`.
    package func members(ofSession session: pid_t) -> [pid_t] {
        processes.filter { $0.session == session }.map(\.id)
    }

    /// `pid`'s parent, that one's parent and so on, nearest first, as far as the table goes.
    package func ancestors(of pid: pid_t) -> [pid_t] {
        let parents = Dictionary(
            processes.map { ($0.id, $0.parent) }, uniquingKeysWith: { first, _ in first })
        var chain: [pid_t] = []
        var current = pid
        // A chain ends at the first process (its parent is 0) or at one the table lacks; the
        // count bounds a table read while processes came and went.
        while let parent = parents[current], parent > 0, chain.count < parents.count {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// The processes below `root`: its children, theirs, and so on.
    package func descendants(of root: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for process in processes { children[process.parent, default: []].append(process.id) }
        var found: [pid_t] = []
        var pending = children[root] ?? []
        while let pid = pending.popLast() {
            found.append(pid)
            pending += children[pid] ?? []
        }
        return found
    }

    /// The arguments `pid` was started with, its program first, as `execve` was given them; nil
    /// when it has ended or is not ours to read.
    package static func arguments(of pid: pid_t) -> [String]? {
        FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { line in
            line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// `pid`'s working folder; nil when it has ended or is not ours to read.
    package static func workingFolder(of pid: pid_t) -> String? {
        // Either way there is no folder to report, and the process is not one the caller can act on.
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
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

    /// `pid`'s entry, or nil when it has ended (gone, or a zombie) or cannot be read.
    private static func process(_ pid: pid_t) -> Process? {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        return process(pid, stat: String(decoding: stat, as: UTF8.self))
    }

    /// Parses a `/proc/PID/stat` line: `PID (NAME) STATE PARENT GROUP SESSION …`, where the name
    /// may itself hold spaces and parentheses, so the fields are read after the last `)`.
    package static func process(_ pid: pid_t, stat line: String) -> Process? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 3, fields[0] != "Z", fields[0] != "X", let parent = pid_t(fields[1]),
            let group = pid_t(fields[2]), let session = pid_t(fields[3])
        else { return nil }
        return Process(id: pid, parent: parent, processGroup: group, session: session)
    }
}
