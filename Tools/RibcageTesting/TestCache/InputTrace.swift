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
            // `-I1`: SIGTERM ends strace, which then lets its tracees go. With `-o FILE` its
            // default is to block such signals for as long as any tracee lives, and a signal a
            // stopping `ribcage` sent a tracee meanwhile could be lost in the tracer.
            "-I1", "-f", "-qq", "--seccomp-bpf", "-y", "-xx", "-s", "8192", "-e",
            "trace=" + tracedCalls.joined(separator: ","), "-e", "signal=none",
            // A program's path is enough: the compilers a suite may start (RibcageToolTests
            // builds a package) take thousands of arguments, which made a trace of 900 MB.
            "-e", "verbose=!execve,execveat", "-o", log.path, "--",
        ] + command
    }

    /// Reads a trace written with ``wrapping(_:log:)``.
    package init(log text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Reads the trace in the file at `url`, written with ``wrapping(_:log:)``.
    package init(contentsOf url: URL) throws {
        self.init(bytes: [UInt8](try Data(contentsOf: url)))
    }

    /// Reads a trace from its bytes: a line is a pid, spaces and a call.
    init(bytes: [UInt8]) {
        accesses = []
        // The complete calls, in order: a call another thread interrupted is printed in two
        // halves, put together where it ended.
        var calls: [(pid: Int, call: StraceCall)] = []
        var pending: [Int: [UInt8]] = [:]
        let unfinished = Array("<unfinished ...>".utf8)
        let resumed = Array(" resumed>".utf8)
        var start = 0
        while start < bytes.count {
            let end = Self.endOfLine(in: bytes, from: start)
            defer { start = end + 1 }
            var index = start
            var pid = 0
            // A pid has at most 10 digits (Linux's largest is 4194304); more is not a line of ours.
            while index < end, index - start < 10, (48...57).contains(bytes[index]) {
                pid = pid * 10 + Int(bytes[index] - 48)
                index += 1
            }
            guard index > start, index < end, bytes[index] == UInt8(ascii: " ") else { continue }
            // strace pads the pid to a width of its own: `9661  execve(…`.
            while index < end, bytes[index] == UInt8(ascii: " ") { index += 1 }
            if rootPID == nil { rootPID = pid }
            let call = bytes[index..<end]
            if call.count >= unfinished.count, call.suffix(unfinished.count).elementsEqual(unfinished) {
                pending[pid] = Array(call.dropLast(unfinished.count))
                continue
            }
            if call.starts(with: Array("<... ".utf8)), let mark = Self.firstRange(of: resumed, in: call) {
                // The second half pads its result to a column: `<... vfork resumed>)      = 19665`.
                var rest = call[mark.upperBound...]
                if rest.first == UInt8(ascii: ")") {
                    let afterSpaces = rest.dropFirst().drop { $0 == UInt8(ascii: " ") }
                    if afterSpaces.count < rest.count - 1, afterSpaces.starts(with: Array("= ".utf8)) {
                        rest = afterSpaces.dropFirst(2)
                        calls.append(
                            (
                                pid,
                                StraceCall(
                                    (pending.removeValue(forKey: pid) ?? []) + Array(") = ".utf8) + rest)
                            ))
                        continue
                    }
                }
                calls.append((pid, StraceCall((pending.removeValue(forKey: pid) ?? []) + rest)))
                continue
            }
            calls.append((pid, StraceCall(Array(call))))
        }
        // A thread or a new process runs its parent's program until it starts one of its own;
        // its first lines may come before the parent's clone returns, so parents are found first.
        var parents: [Int: Int] = [:]
        for (pid, call) in calls {
            if let child = call.child { parents[child] = pid }
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
        var paths = AbsolutePaths()
        for (pid, call) in calls {
            guard var access = call.access(pid: pid, paths: &paths) else { continue }
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

    /// Where the line that starts at `start` ends: its newline, or the end of `bytes`.
    private static func endOfLine(in bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress,
                let found = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
            else { return bytes.count }
            return UnsafeRawPointer(found) - base
        }
    }

    private static func firstRange(of pattern: [UInt8], in text: ArraySlice<UInt8>) -> Range<Int>? {
        var start = text.startIndex
        while start <= text.endIndex - pattern.count {
            if text[start..<(start + pattern.count)].elementsEqual(pattern) {
                return start..<(start + pattern.count)
            }
            start += 1
        }
        return nil
    }

    /// Decodes strace's `-xx` form, every byte as `\xHH`; nil for anything else.
    package static func decode(_ escaped: Substring) -> String? {
        Array(escaped.utf8).withUnsafeBufferPointer { StraceCall.decode($0) }
    }
}
