import Foundation
import LocalProvider

#if canImport(Glibc)
    import Glibc
#endif

/// What the plist loop stores: big enough that a kill often lands in the middle of a write.
struct Batch: Codable, Sendable {
    var round: Int
    var lines: [String]
}

/// Saves `keys` batches, round after round; prints `ack ROUND KEY` after each save.
func plistLoop(root: URL, keys: Int) throws -> Never {
    let store = try PlistFileStore(root: root, format: .binary)
    var round = 0
    while true {
        for index in 0..<keys {
            let lines = (0..<2_000).map { "round \(round) key \(index) line \($0)" }
            try store.save(Batch(round: round, lines: lines), for: StorageKey<Batch>("batch-\(index)"))
            say("ack \(round) \(index)")
        }
        round += 1
    }
}

/// What the defaults loop stores: a profile, with a bio long enough to make writes take time.
struct ProbeProfile: Codable, Sendable {
    var counter: Int
    var bio: String
}

/// Saves the profile with counter 1, 2, 3…, continuing from what is stored; prints `ack N`.
func defaultsLoop(suite: String) throws -> Never {
    let store = try UserDefaultsStore(suiteName: suite)
    let key = StorageKey<ProbeProfile>("profile")
    var counter = try store.load(key)?.counter ?? 0
    while true {
        counter += 1
        let bio = String(repeating: "Counter \(counter) walks the dog. ", count: 400)
        try store.save(ProbeProfile(counter: counter, bio: bio), for: key)
        try store.setPropertyList(["counter": counter], forKey: "raw")
        say("ack \(counter)")
    }
}

/// Numbers kept by a ``JournaledStore``, each with a padded label so that a fold writes enough
/// to be killed in the middle.
struct Numbers: Journaled {
    var values: [Int] = []

    init() {}
    init(snapshot: [String]) throws {
        values = try snapshot.map { label in
            guard let value = Int(label.prefix { $0 != ":" }) else { throw CocoaError(.coderReadCorrupt) }
            return value
        }
    }
    var snapshot: [String] { values.map { "\($0): " + String(repeating: "x", count: 200) } }
    mutating func apply(_ change: Int) { values.append(change) }
}

func numbers(in folder: URL, foldThreshold: Int = 256, lockTimeout: Duration = .seconds(5))
    -> JournaledStore<Numbers>
{
    JournaledStore(folder: folder, name: "numbers", foldThreshold: foldThreshold, lockTimeout: lockTimeout)
}

/// Appends the numbers after the largest stored one; prints `ack N` after each.
func journalLoop(folder: URL, foldThreshold: Int) throws -> Never {
    let store = numbers(in: folder, foldThreshold: foldThreshold)
    let loaded = try store.load()
    guard loaded.setAside.isEmpty else { fail("set aside at start: \(loaded.setAside)") }
    var next = (loaded.value.values.max() ?? 0) + 1
    while true {
        try store.append(next)
        say("ack \(next)")
        next += 1
    }
}

/// Prints `count N max M distinct D setAside S`.
func journalCheck(folder: URL) throws {
    let loaded = try numbers(in: folder).load()
    let values = loaded.value.values
    say(
        "count \(values.count) max \(values.max() ?? 0) distinct \(Set(values).count) "
            + "setAside \(loaded.setAside.count)")
    for damage in loaded.setAside { say("damage \(damage)") }
}

/// How long the writers of one file wait for each other. Eight writers on a machine busy with a
/// whole test run can wait longer than the stores' default 5 s; what they test is that no key is
/// lost (LockWaitTests.lockTimeout tests the timeout itself).
let writersLockTimeout: Duration = .seconds(60)

/// Saves PREFIX-0… each holding its own name.
///
/// A save that timed out waiting for the lock changed nothing, as its error says, and is made
/// again, up to five times: `flock` serves its waiters in no order, and a writer in another
/// process saving key after key takes the lock back as soon as it lets go, so on a machine busy
/// with a whole test run one writer waited out its 60 s (CI, 2026-11-30). What these writers
/// test is that no key is lost; LockWaitTests tests the timeout.
func writeKeys(prefix: String, count: Int, to store: any LocalStore) throws {
    for index in 0..<count {
        let name = "\(prefix)-\(index)"
        var timeouts = 0
        while true {
            do {
                try store.save(name, for: StorageKey<String>(name))
                break
            } catch StorageError.lockTimeout(let folder, _) where timeouts < 5 {
                timeouts += 1
                FileHandle.standardError.write(Data("\(name): \(folder) stayed locked; saving again\n".utf8))
            }
        }
    }
}

/// Appends PREFIX * 1,000,000 + 1…COUNT.
func journalAppender(folder: URL, prefix: Int, count: Int, foldThreshold: Int) throws {
    let store = numbers(in: folder, foldThreshold: foldThreshold, lockTimeout: writersLockTimeout)
    for index in 1...max(1, count) { try store.append(prefix * 1_000_000 + index) }
}

/// Saves an already expired value, then a fresh one, then reads the fresh one back: a reader
/// that removed the expired value by name after the fresh one landed would have deleted it.
func expiryWriter(root: URL, rounds: Int) throws {
    let store = try PlistFileStore(root: root)
    let key = StorageKey<String>("token")
    var lost = 0
    for round in 0..<rounds {
        try store.save("expired \(round)", for: key, expiry: .date(Date(timeIntervalSince1970: 0)))
        try store.save("fresh \(round)", for: key)
        if try store.load(key) != "fresh \(round)" { lost += 1 }
    }
    say("lost \(lost)")
}

func expiryReader(root: URL) throws -> Never {
    let store = try PlistFileStore(root: root)
    while true { _ = try store.load(StorageKey<String>("token")) }
}

/// Appends until the journal may grow no further (as on a full disk); prints `ack N` for each
/// append that returned and `failed` with the error for the first that did not.
func journalDiskFull(folder: URL, extraBytes: Int) throws {
    let store = numbers(in: folder, foldThreshold: 1_000_000)
    let loaded = try store.load()
    let journalSize =
        (try? FileManager.default.attributesOfItem(atPath: store.journalURL.path))?[.size] as? Int ?? 0
    signal(SIGXFSZ, SIG_IGN)  // a write past the limit then fails with EFBIG instead of killing us
    var limit = rlimit(rlim_cur: rlim_t(journalSize + extraBytes), rlim_max: rlim_t.max)
    guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { fail("setrlimit: \(errno)") }
    var next = (loaded.value.values.max() ?? 0) + 1
    while true {
        do {
            try store.append(next)
        } catch {
            say("failed \(error)")
            return
        }
        say("ack \(next)")
        next += 1
    }
}

/// Saves a value of BYTES × 4 bytes under `big` with every file limited to BYTES (RLIMIT_FSIZE,
/// as on a full disk) through the kind of store named; prints `saved`, or `failed OPERATION
/// ERRNO` for the typed error it got.
func saveOnFullDisk(kind: String, root: URL, limit: Int) {
    signal(SIGXFSZ, SIG_IGN)  // a write past the limit then fails with EFBIG instead of killing us
    do {
        let store = try store(kind: kind, root: root)
        var fileSize = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t.max)
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &fileSize) == 0 else { fail("setrlimit: \(errno)") }
        try store.save(String(repeating: "x", count: limit * 4), for: StorageKey<String>("big"))
        say("saved")
    } catch StorageError.fileSystem(let operation, _, let errno) {
        say("failed \(operation) \(errno.rawValue)")
    } catch {
        say("failed \(error)")
    }
}

/// A store of the kind named (`plist`, `table` or `defaults`) in `root`.
func store(kind: String, root: URL) throws -> any LocalStore {
    switch kind {
    case "plist": try PlistFileStore(root: root)
    case "table": try PlistFileStore(root: root, layout: .singleFile(name: "table"))
    case "defaults": try UserDefaultsStore(suiteName: "Suite", environment: ["XDG_CONFIG_HOME": root.path])
    default: fail("unknown store kind \(kind)")
    }
}

func holdLock(_ folder: URL) -> Never {
    let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { fail("cannot lock \(folder.path)") }
    say("locked")
    while true { pause() }
}

/// Loads `key` from the kind of store named, after dropping root's rights to `nobody`, and
/// prints `value TEXT`, `absent`, `damaged …` or `error fileSystem ERRNO`.
func describe(kind: String, root: URL, key: String) {
    if geteuid() == 0 {
        guard setgid(65_534) == 0, setuid(65_534) == 0 else { fail("cannot become nobody") }
    }
    do {
        let value: String?
        switch kind {
        case "plist": value = try PlistFileStore(root: root).load(StorageKey<String>(key))
        case "table":
            value = try PlistFileStore(root: root, layout: .singleFile(name: "table")).load(
                StorageKey<String>(key))
        case "defaults":
            value = try UserDefaultsStore(suiteName: key, environment: ["XDG_CONFIG_HOME": root.path]).load(
                StorageKey<String>("value"))
        case "journal":
            let loaded = try numbers(in: root).load()
            value = loaded.value.values.map(String.init).joined(separator: ",")
        default: fail("unknown store kind \(kind)")
        }
        say(value.map { "value \($0)" } ?? "absent")
    } catch StorageError.fileSystem(_, _, let errno) {
        say("error fileSystem \(errno.rawValue)")
    } catch {
        say("error \(error)")
    }
}
