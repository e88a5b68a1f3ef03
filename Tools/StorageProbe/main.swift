// storage-probe: a child process for LocalProvider's tests. It writes and reads through the
// real stores so that tests can check persistence across processes, run several writers at
// once, and kill it at any moment. Writers print `ack N` once a save or append of N returned:
// what a test may expect to find after the kill.
//
// With a pipe on its standard input, the probe ends when the pipe closes: when the process that
// started it is gone (see ParentWatch.swift).
//
//   write ROOT KEY TEXT             save TEXT under KEY in a PlistFileStore at ROOT
//   read ROOT KEY                   print the text under KEY, or <none>
//   plist-loop ROOT KEYS            save KEYS keys round after round (binary, one file each)
//   defaults-write SUITE KEY TEXT   the same in a UserDefaults suite ($XDG_CONFIG_HOME)
//   defaults-read SUITE KEY
//   defaults-loop SUITE             save a profile with a growing counter, forever
//   journal-loop FOLDER FOLD        append 1, 2, 3… to a JournaledStore, folding every FOLD
//   journal-check FOLDER            print what the journaled numbers hold
//   table-writer ROOT PREFIX COUNT  save PREFIX-0…PREFIX-(COUNT-1) into one single-file store
//   defaults-writer SUITE PREFIX COUNT   the same in a UserDefaults suite
//   journal-appender FOLDER PREFIX COUNT FOLD   append COUNT tagged numbers
//   expiry-writer ROOT ROUNDS       save an expired value then a fresh one; print `lost N`
//   expiry-reader ROOT              load the value forever (which removes expired ones)
//   journal-disk-full FOLDER BYTES  append with the journal limited to BYTES more (RLIMIT_FSIZE)
//   disk-full plist|table|defaults ROOT BYTES   save a value too big for a file limit of BYTES
//   hold-lock FOLDER                flock FOLDER, print `locked`, wait to be killed
//   parent-of COMMAND…              run the probe with COMMAND… as a child, print `child PID`,
//                                   wait to be killed (the child must end with it)
//   describe plist|table|defaults|journal ROOT KEY   print what loading KEY gives, as the
//                                   unprivileged user when run as root (`nobody`, 65534)
import Foundation
import LocalProvider

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("storage-probe: \(message)\n".utf8))
    exit(2)
}

/// Prints `line` at once, whole: a kill never leaves half an acknowledgement in the pipe.
func say(_ line: String) {
    let bytes = Array("\(line)\n".utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func number(_ text: String, _ what: String) -> Int {
    guard let value = Int(text), value >= 0 else { fail("\(what) must be a number, not \(text)") }
    return value
}

endWhenParentEnds()
let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("usage: see the comment at the top of main.swift") }
let folder = { (index: Int) in URL(fileURLWithPath: arguments[index], isDirectory: true) }

do {
    switch (command, arguments.count) {
    case ("write", 4):
        try PlistFileStore(root: folder(1)).save(arguments[3], for: StorageKey<String>(arguments[2]))
    case ("read", 3):
        say(try PlistFileStore(root: folder(1)).load(StorageKey<String>(arguments[2])) ?? "<none>")
    case ("plist-loop", 3):
        try plistLoop(root: folder(1), keys: number(arguments[2], "KEYS"))
    case ("defaults-write", 4):
        try UserDefaultsStore(suiteName: arguments[1]).save(
            arguments[3], for: StorageKey<String>(arguments[2]))
    case ("defaults-read", 3):
        say(try UserDefaultsStore(suiteName: arguments[1]).load(StorageKey<String>(arguments[2])) ?? "<none>")
    case ("defaults-loop", 2):
        try defaultsLoop(suite: arguments[1])
    case ("journal-loop", 3):
        try journalLoop(folder: folder(1), foldThreshold: number(arguments[2], "FOLD"))
    case ("journal-check", 2):
        try journalCheck(folder: folder(1))
    case ("table-writer", 4):
        let store = try PlistFileStore(
            root: folder(1), layout: .singleFile(name: "shared"), lockTimeout: writersLockTimeout)
        try writeKeys(prefix: arguments[2], count: number(arguments[3], "COUNT"), to: store)
    case ("defaults-writer", 4):
        try writeKeys(
            prefix: arguments[2], count: number(arguments[3], "COUNT"),
            to: UserDefaultsStore(suiteName: arguments[1], lockTimeout: writersLockTimeout))
    case ("journal-appender", 5):
        try journalAppender(
            folder: folder(1), prefix: number(arguments[2], "PREFIX"), count: number(arguments[3], "COUNT"),
            foldThreshold: number(arguments[4], "FOLD"))
    case ("expiry-writer", 3):
        try expiryWriter(root: folder(1), rounds: number(arguments[2], "ROUNDS"))
    case ("expiry-reader", 2):
        try expiryReader(root: folder(1))
    case ("journal-disk-full", 3):
        try journalDiskFull(folder: folder(1), extraBytes: number(arguments[2], "BYTES"))
    case ("disk-full", 4):
        saveOnFullDisk(kind: arguments[1], root: folder(2), limit: number(arguments[3], "BYTES"))
    case ("hold-lock", 2):
        holdLock(folder(1))
    case ("parent-of", 2...):
        parentOf(Array(arguments.dropFirst()))
    case ("describe", 4):
        describe(kind: arguments[1], root: folder(2), key: arguments[3])
    default:
        fail("unknown command or wrong arguments: \(arguments.joined(separator: " "))")
    }
} catch {
    fail("\(error)")
}
