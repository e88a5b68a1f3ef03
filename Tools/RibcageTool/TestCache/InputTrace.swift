import Foundation

/// What the processes of a traced test run opened and started, read from `strace`'s log.
///
/// The run is wrapped in `strace -f --seccomp-bpf`: the seccomp filter stops a process only at
/// the system calls asked for (opening a file, starting a program), so the rest of the run goes
/// at full speed; `-y` prints the file every descriptor names (the current folder of a relative
/// open, the file an open returned, with links resolved), and `-xx` prints every path byte as
/// `\xHH`, so any file name reads back exactly. Environment variables cannot be traced this way
/// (a process reads `environ` from its own memory): Project.swift.md declares those.
package struct InputTrace: Sendable, Equatable {
    /// One file a traced process opened, or one program it started.
    package struct Access: Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            /// Opened for reading (or reading and writing).
            case read
            /// A folder opened to list it.
            case listing
            /// Started with `execve`.
            case executed
        }

        package var kind: Kind
        /// The path as asked for, made absolute against the folder it was relative to.
        package var path: String
        /// What the open found, links resolved: nil when it failed (a missing file).
        package var resolved: String?
        /// The process that made the call.
        package var pid: Int
        /// The program that process runs (the last it started), when the trace shows it.
        package var program: String?
        /// Made by a test bundle's process or one it started, rather than by SwiftPM (which
        /// also starts `git`, `pkg-config` and the linker's helpers).
        package var byTest = false

        package init(kind: Kind, path: String, resolved: String?, pid: Int, program: String? = nil) {
            self.kind = kind
            self.path = path
            self.resolved = resolved
            self.pid = pid
            self.program = program
        }
    }

    /// Every access, in the order of the log.
    package var accesses: [Access]
    /// The first process of the trace: the traced command itself.
    package var rootPID: Int?
    /// Whether a test bundle (`*.xctest`) ran: then only its processes' accesses are a
    /// suite's (``Access/byTest``).
    package var ranTests = false

    /// The system calls traced.
    package static let tracedCalls = [
        "open", "openat", "openat2", "creat", "execve", "execveat", "clone", "clone3", "fork", "vfork",
    ]

    /// The `strace` arguments that wrap `command`, writing the trace to `log`.
    package static func wrapping(_ command: [String], log: URL) -> [String] {
        [
            "-f", "-qq", "--seccomp-bpf", "-y", "-xx", "-s", "8192", "-e",
            "trace=" + tracedCalls.joined(separator: ","), "-e", "signal=none",
            // A program's path is enough: the compilers a suite may start (RibcageToolTests
            // builds a package) take thousands of arguments, which made a trace of 900 MB.
            "-e", "verbose=!execve,execveat", "-o", log.path, "--",
        ] + command
    }

    /// Reads a trace written with ``wrapping(_:log:)``.
    package init(log text: String) {
        accesses = []
        // The complete calls, in order: a call another thread interrupted is printed in two
        // halves, put together where it ended.
        var calls: [(pid: Int, call: String)] = []
        var pending: [Int: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let space = line.firstIndex(of: " "), let pid = Int(line[..<space]) else { continue }
            // strace pads the pid to a width of its own: `9661  execve(…`.
            var call = String(line[line.index(after: space)...].drop { $0 == " " })
            if rootPID == nil { rootPID = pid }
            if call.hasSuffix("<unfinished ...>") {
                pending[pid] = String(call.dropLast("<unfinished ...>".count))
                continue
            }
            if call.hasPrefix("<... "), let resumed = call.range(of: " resumed>") {
                // The second half pads its result to a column: `<... vfork resumed>)      = 19665`.
                let rest = call[resumed.upperBound...].replacing(
                    #/^\)\s+= /#, with: ") = ", maxReplacements: 1)
                call = (pending.removeValue(forKey: pid) ?? "") + rest
            }
            calls.append((pid, call))
        }
        // A thread or a new process runs its parent's program until it starts one of its own;
        // its first lines may come before the parent's clone returns, so parents are found first.
        var parents: [Int: Int] = [:]
        for (pid, call) in calls {
            if let child = Self.child(in: call) { parents[child] = pid }
        }
        var programs: [Int: String] = [:]
        func program(of pid: Int) -> String? {
            var current = pid
            var seen: Set<Int> = []
            while programs[current] == nil, let parent = parents[current], seen.insert(current).inserted {
                current = parent
            }
            return programs[current]
        }
        // The test processes: a test bundle (`*.xctest`) and whatever it starts.
        var testProcesses: Set<Int> = []
        func isTest(_ pid: Int) -> Bool {
            var current = pid
            var seen: Set<Int> = []
            while true {
                if testProcesses.contains(current) { return true }
                guard let parent = parents[current], seen.insert(current).inserted else { return false }
                current = parent
            }
        }
        for (pid, call) in calls {
            guard var access = Self.access(in: call, pid: pid) else { continue }
            if access.kind == .executed {
                programs[pid] = access.path
                if access.path.hasSuffix(".xctest") { testProcesses.insert(pid) }
            } else {
                access.program = program(of: pid)
            }
            access.byTest = isTest(pid)
            accesses.append(access)
        }
        ranTests = !testProcesses.isEmpty
    }

    /// The thread or process a `clone`, `clone3`, `fork` or `vfork` made, from its result.
    static func child(in call: String) -> Int? {
        guard call.hasPrefix("clone") || call.hasPrefix("fork(") || call.hasPrefix("vfork("),
            let equals = call.range(of: ") = ", options: .backwards)
        else { return nil }
        return Int(call[equals.upperBound...].prefix { $0.isNumber })
    }

    /// The access one complete line of the trace records, or nil for calls that read nothing:
    /// an open for writing only, a failed start of a program, a line in another shape.
    static func access(in call: String, pid: Int) -> Access? {
        guard let parenthesis = call.firstIndex(of: "(") else { return nil }
        let name = call[..<parenthesis]
        guard let equals = call.range(of: ") = ", options: .backwards) else { return nil }
        let arguments = call[call.index(after: parenthesis)..<equals.lowerBound]
        let result = call[equals.upperBound...]
        let succeeded = !result.hasPrefix("-")
        switch name {
        case "execve", "execveat":
            // A failed execve is a search along PATH: only the program that started counts.
            guard succeeded, result.hasPrefix("0") else { return nil }
            var scanner = Scanner(arguments)
            let folder = name == "execveat" ? scanner.descriptorPath() : nil
            guard let path = scanner.quoted() else { return nil }
            let absolute = Self.absolute(path, against: folder)
            return absolute.map { Access(kind: .executed, path: $0, resolved: $0, pid: pid) }
        case "open", "openat", "openat2", "creat":
            var scanner = Scanner(arguments)
            let folder = name.hasPrefix("openat") ? scanner.descriptorPath() : nil
            guard let path = scanner.quoted() else { return nil }
            let flags = scanner.rest
            if name == "creat" || flags.contains("O_WRONLY") { return nil }
            guard let absolute = Self.absolute(path, against: folder) else { return nil }
            let kind: Access.Kind = flags.contains("O_DIRECTORY") ? .listing : .read
            var answer = Scanner(result)
            let resolved = succeeded ? answer.descriptorPath() : nil
            return Access(kind: kind, path: absolute, resolved: resolved, pid: pid)
        default:
            return nil
        }
    }

    /// `path`, made absolute against `folder` when relative; nil when relative to an unknown
    /// folder.
    private static func absolute(_ path: String, against folder: String?) -> String? {
        if path.hasPrefix("/") { return (path as NSString).standardizingPath }
        guard let folder else { return nil }
        return ((folder as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }

    /// Reads the parts of one call's arguments, left to right.
    private struct Scanner {
        var rest: Substring

        init(_ text: Substring) { rest = text }

        /// A descriptor printed as `AT_FDCWD<path>` or `3<path>`: the path, or nil.
        mutating func descriptorPath() -> String? {
            guard let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") else {
                return nil
            }
            let path = InputTrace.decode(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            return path
        }

        /// The next quoted string.
        mutating func quoted() -> String? {
            guard let open = rest.firstIndex(of: "\""),
                let close = rest[rest.index(after: open)...].firstIndex(of: "\"")
            else { return nil }
            let text = InputTrace.decode(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            return text
        }
    }

    /// Decodes strace's `-xx` form, every byte as `\xHH`; nil for anything else.
    package static func decode(_ escaped: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(escaped.utf8.count / 4)
        var utf8 = escaped.utf8[...]
        while !utf8.isEmpty {
            guard utf8.count >= 4, utf8.first == UInt8(ascii: "\\"),
                utf8.dropFirst().first == UInt8(ascii: "x"),
                let byte = UInt8(String(decoding: utf8.dropFirst(2).prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(byte)
            utf8 = utf8.dropFirst(4)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
