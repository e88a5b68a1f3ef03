// network-probe: a child process for NetworkProvider's tests, for what a test cannot do inside a
// process shared with other suites: run the process out of file descriptors, and count the
// descriptors a transport leaves behind. It prints one line per check, tab-separated
// `key=value` fields, and the test judges them; it ends by itself, within 60 s at the latest.
//
//   exhaust URL   with RLIMIT_NOFILE lowered and every descriptor taken, send to URL through
//                 transports that cannot make their loops (0, 1 and 2 descriptors left, then the
//                 shared transport); then raise the limit again and send through the same shared
//                 transport and through new ones
//   threads URL   with RLIMIT_NPROC at 0 (as `nobody` when run as root, for whom it does not
//                 hold), send to URL through a transport that cannot start its loop's thread; then
//                 raise the limit again and send through the same transport
//   release URL   count /proc/self/fd before a transport with 2 loops of its own, while it has
//                 connections open to URL, and after it was released and its loops closed (after a
//                 first such round, which opens what the process keeps for good)
//   bursts TRANSPORT BURSTSxSIZE URL...
//                 send bursts of concurrent requests through one transport (curl: a CurlTransport
//                 on the shared loops; curl:N: one with connectionsPerLoop N; urlsession:
//                 URLSessionTransport.shared), spread over the URLs, and count /proc/self/fd
//                 before the first request, after it and after each burst; `bursts curl 3x1000
//                 URL` is issue 32's measurement
import Foundation
import NetworkProvider
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("network-probe: \(message)\n".utf8))
    exit(2)
}

/// Prints `fields` as one line, written at once.
func say(_ fields: KeyValuePairs<String, String>) {
    let line = fields.map { "\($0.key)=\($0.value)" }.joined(separator: "\t") + "\n"
    let bytes = Array(line.utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// What sending `url` through `transport` gave: `status N`, `unavailable|RESOURCE|ERRNO` or
/// `error|DESCRIPTION`.
func outcome(of transport: any Transport, _ url: URL) async -> String {
    var request = URLRequest(url: url)
    request.timeoutInterval = 10
    do throws(NetworkError) {
        return "status \(try await transport.send(request).statusCode)"
    } catch .transportUnavailable(let failure) {
        return "unavailable|\(failure.resource.rawValue)|\(failure.code?.rawValue ?? 0)"
    } catch {
        return "error|\(error)"
    }
}

/// Descriptors taken to run the process out of them: every one the limit allows, less those
/// given back.
struct Exhaustion {
    private var saved = rlimit()
    private var fillers: [Int32] = []

    /// Lowers the soft limit to 256 (a few hundred opens, not a million) and takes every
    /// descriptor left.
    mutating func begin() {
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved) == 0 else { fail("getrlimit: errno \(errno)") }
        var lowered = saved
        lowered.rlim_cur = min(256, saved.rlim_max)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered) == 0 else {
            fail("setrlimit: errno \(errno)")
        }
        takeAll()
    }

    /// Takes descriptors until none is left.
    mutating func takeAll() {
        while true {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                fillers.append(descriptor)
                continue
            }
            guard errno == EMFILE else { fail("open /dev/null: errno \(errno)") }
            return
        }
    }

    /// Gives back `count` descriptors.
    mutating func free(_ count: Int) {
        for _ in 0..<count {
            guard let descriptor = fillers.popLast() else { fail("no descriptor to give back") }
            close(descriptor)
        }
    }

    /// How many descriptors can still be opened, measured by opening them (nothing else can be
    /// opened to look) and closing them again.
    static func left() -> Int {
        var taken: [Int32] = []
        defer { for descriptor in taken { close(descriptor) } }
        while true {
            let descriptor = dup(STDERR_FILENO)
            guard descriptor >= 0 else { return taken.count }
            taken.append(descriptor)
        }
    }

    /// Gives every descriptor back and restores the limit.
    mutating func end() {
        free(fillers.count)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved) == 0 else { fail("setrlimit: errno \(errno)") }
    }
}

/// What each open descriptor refers to (`socket:[123]`, `anon_inode:[eventpoll]`, a path), the
/// one used to read /proc/self/fd included.
func openDescriptors() -> [String] {
    do {
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return names.map { name in
            // The descriptor that listed the folder is closed by now.
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) ?? "closed"
        }
    } catch {
        fail("cannot list /proc/self/fd: \(error)")
    }
}

func exhaust(_ url: URL) async {
    // curl_global_init reads its configuration once, before the descriptors run out.
    _ = CurlTransport(loopCount: 1)
    var exhaustion = Exhaustion()
    exhaustion.begin()
    // 0, 1, 2 left: the epoll instance, the eventfd, the timerfd cannot be made. Each transport
    // is asked twice: the second attempt makes the loop again, and must fail the same way, with
    // as many descriptors left as before (nothing kept open from the first).
    for free in 0...2 {
        exhaustion.free(free)
        let transport = CurlTransport(loopCount: 1)
        for attempt in 1...2 {
            let result = await outcome(of: transport, url)
            say([
                "case": "own", "free": "\(free)", "attempt": "\(attempt)", "outcome": result,
                "left": "\(Exhaustion.left())",
            ])
        }
        exhaustion.takeAll()
    }
    let shared = CurlTransport()
    say(["case": "shared", "outcome": await outcome(of: shared, url), "left": "\(Exhaustion.left())"])

    exhaustion.end()
    say(["case": "shared again", "outcome": await outcome(of: shared, url)])
    say(["case": "new shared", "outcome": await outcome(of: CurlTransport(), url)])
    say(["case": "new own", "outcome": await outcome(of: CurlTransport(loopCount: 1), url)])
}

/// How many descriptors are open, found without opening one (the process may not read its own
/// /proc entries after it changed user).
func descriptorCount() -> Int {
    (0..<Int32(4_096)).count { fcntl($0, F_GETFD) != -1 }
}

/// Starts the concurrency runtime's threads while threads can still be made: the runtime
/// cannot make them later, and would wait for them.
func startTheCooperativePool() async {
    final class Count: Sendable { let value = Atomic<Int>(0) }
    let started = Count()
    let width = ProcessInfo.processInfo.activeProcessorCount
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<width {
            group.addTask {
                // Each task holds its thread until every thread of the pool has one.
                started.value.add(1, ordering: .relaxed)
                let deadline = ContinuousClock.now + .seconds(2)
                while started.value.load(ordering: .relaxed) < width, ContinuousClock.now < deadline {}
            }
        }
    }
}

func threads(_ url: URL) async {
    _ = CurlTransport(loopCount: 1)
    await startTheCooperativePool()
    if getuid() == 0 {
        guard setgid(65_534) == 0, setuid(65_534) == 0 else { fail("cannot become nobody: errno \(errno)") }
    }
    var saved = rlimit()
    guard getrlimit(Int32(__RLIMIT_NPROC.rawValue), &saved) == 0 else { fail("getrlimit: errno \(errno)") }
    var lowered = saved
    lowered.rlim_cur = 0
    guard setrlimit(Int32(__RLIMIT_NPROC.rawValue), &lowered) == 0 else { fail("setrlimit: errno \(errno)") }
    let before = descriptorCount()
    let transport = CurlTransport(loopCount: 1)
    for attempt in 1...2 {
        let result = await outcome(of: transport, url)
        say([
            "case": "threads", "attempt": "\(attempt)", "outcome": result,
            "descriptors": descriptorCount() == before ? "as before" : "\(before) then \(descriptorCount())",
        ])
    }
    guard setrlimit(Int32(__RLIMIT_NPROC.rawValue), &saved) == 0 else { fail("setrlimit: errno \(errno)") }
    say(["case": "threads again", "outcome": await outcome(of: transport, url)])
}

/// Sends requests through a transport with 2 loops of its own, one after another (one
/// connection), then 16 at once (several, on both loops), releases it and waits for its loops
/// to close. Returns the outcomes that were not `status 200`, and the descriptors open while the
/// transport had its connections.
func useAndRelease(_ url: URL) async -> (failures: [String], during: [String], loops: Int) {
    let (results, during, closed) = await {
        let transport = CurlTransport(loopCount: 2)
        var results: [String] = []
        for _ in 0..<20 { results.append(await outcome(of: transport, url)) }
        results += await withTaskGroup(of: String.self) { group in
            for _ in 0..<16 { group.addTask { await outcome(of: transport, url) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        return (results, openDescriptors(), transport.loopsClosed)
    }()
    // The transport is gone.
    for loop in closed { await loop.wait() }
    return (results.filter { $0 != "status 200" }, during, closed.count)
}

func release(_ url: URL) async {
    // A first round opens what the process keeps once opened: the timerfd libdispatch makes for
    // the concurrency runtime's first timer, curl's global state.
    _ = await useAndRelease(url)
    let before = openDescriptors()
    let (failures, during, loops) = await useAndRelease(url)
    let after = openDescriptors()
    var leftOpen = after
    for descriptor in before {
        if let index = leftOpen.firstIndex(of: descriptor) { leftOpen.remove(at: index) }
    }
    say([
        "before": "\(before.count)", "during": "\(during.count)", "after": "\(after.count)",
        "loops": "\(loops)", "failures": failures.isEmpty ? "none" : failures.joined(separator: "; "),
        "left open": leftOpen.isEmpty ? "none" : leftOpen.joined(separator: " "),
    ])
}

/// Sends `shape` (`BURSTSxSIZE`: so many bursts of so many concurrent requests) through one
/// transport, spread over `urls`, and says how many descriptors are open before the first
/// request, after it, and after each burst, and how many connections the transport may keep.
func bursts(_ kind: String, _ shape: String, _ urls: [URL]) async {
    let numbers = shape.split(separator: "x").compactMap { Int($0) }
    guard numbers.count == 2, !urls.isEmpty else { fail("bursts: expected BURSTSxSIZE and URLs") }
    let start = openDescriptors().count
    let transport: any Transport
    let loops: () -> Int
    let kept: Int
    if kind == "urlsession" {
        // One session, one multi handle, whose bound is per host.
        let shared = URLSessionTransport.shared
        (transport, loops, kept) = (shared, { 1 }, shared.session.configuration.httpMaximumConnectionsPerHost)
    } else if kind == "curl" || kind.hasPrefix("curl:") {
        let curl =
            if let connections = Int(kind.dropFirst("curl:".count)) {
                CurlTransport(connectionsPerLoop: connections)
            } else { CurlTransport() }
        (transport, loops, kept) = (curl, { curl.loopsClosed.count }, curl.connectionsPerLoop)
    } else {
        fail("unknown transport \(kind)")
    }
    let first = await outcome(of: transport, urls[0])
    say([
        "start": "\(start)", "warm": "\(openDescriptors().count)", "loops": "\(loops())", "kept": "\(kept)",
        "first": first,
    ])
    for burst in 1...numbers[0] {
        let failures = await withTaskGroup(of: String.self) { group in
            for index in 0..<numbers[1] {
                group.addTask { await outcome(of: transport, urls[index % urls.count]) }
            }
            return await group.reduce(into: [String]()) { if $1 != "status 200" { $0.append($1) } }
        }
        say([
            "burst": "\(burst)", "descriptors": "\(openDescriptors().count)",
            "failures": failures.isEmpty ? "none" : "\(failures.count), first \(failures[0])",
        ])
    }
}

// A probe that hangs must not outlive the test that started it.
alarm(60)
let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("bursts", 4...):
    await bursts(arguments[1], arguments[2], arguments.dropFirst(3).compactMap { URL(string: $0) })
case (_, 2):
    guard let url = URL(string: arguments[1]) else { fail("not a URL: \(arguments[1])") }
    switch arguments[0] {
    case "exhaust": await exhaust(url)
    case "release": await release(url)
    case "threads": await threads(url)
    default: fail("unknown command \(arguments[0])")
    }
default:
    fail("usage: network-probe exhaust|threads|release URL, or bursts TRANSPORT BURSTSxSIZE URL...")
}
