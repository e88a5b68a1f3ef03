// storage-probe: a child process for LocalProvider's tests. It writes and reads through the
// real stores so that tests can check persistence across processes and kill it mid-write.
//
//   storage-probe write ROOT KEY TEXT         save TEXT under KEY in a PlistFileStore at ROOT
//   storage-probe read ROOT KEY               print the text under KEY, or <none>
//   storage-probe loop ROOT KEYS              rewrite KEYS keys forever; prints "ready" first
//   storage-probe defaults-write SUITE KEY TEXT
//   storage-probe defaults-read SUITE KEY
import Foundation
import LocalProvider

/// What the write loop stores: big enough that a kill often lands in the middle of a write.
struct Batch: Codable, Sendable {
    var round: Int
    var lines: [String]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("storage-probe: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("usage: see the comment at the top of main.swift") }

do {
    switch (command, arguments.count) {
    case ("write", 4):
        let store = try PlistFileStore(root: URL(fileURLWithPath: arguments[1]))
        try store.save(arguments[3], for: StorageKey<String>(arguments[2]))
    case ("read", 3):
        let store = try PlistFileStore(root: URL(fileURLWithPath: arguments[1]))
        print(try store.load(StorageKey<String>(arguments[2])) ?? "<none>")
    case ("loop", 3):
        let store = try PlistFileStore(root: URL(fileURLWithPath: arguments[1]), format: .binary)
        guard let keyCount = Int(arguments[2]), keyCount > 0 else { fail("KEYS must be a positive number") }
        var round = 0
        while true {
            for index in 0..<keyCount {
                let lines = (0..<2_000).map { "round \(round) key \(index) line \($0)" }
                try store.save(Batch(round: round, lines: lines), for: StorageKey<Batch>("batch-\(index)"))
            }
            if round == 0 {
                print("ready")
                fflush(nil)
            }
            round += 1
        }
    case ("defaults-write", 4):
        let store = try UserDefaultsStore(suiteName: arguments[1])
        try store.save(arguments[3], for: StorageKey<String>(arguments[2]))
    case ("defaults-read", 3):
        let store = try UserDefaultsStore(suiteName: arguments[1])
        print(try store.load(StorageKey<String>(arguments[2])) ?? "<none>")
    default:
        fail("unknown command or wrong arguments: \(arguments.joined(separator: " "))")
    }
} catch {
    fail("\(error)")
}
