import Foundation
import LocalProvider
import Testing

/// SIGKILL at moments spread over the writers' work; after every round, every acknowledged
/// change is there and nothing is unreadable. Each round kills after a different number of
/// acknowledgements, and for the journal a different delay after it, so the kills land in
/// writes, renames and folds.
@Suite("SIGKILL loops")
struct KillLoopTests {
    static let rounds = 50

    @Test("PlistFileStore: 200 kills mid-write leave every file whole and the temporary files bounded")
    func plistFileStore() async throws {
        let folder = try TemporaryFolder()
        for round in 0..<200 {
            let lines = try await killProbe(
                ["plist-loop", folder.url.path, "4"], afterAcknowledgements: 1 + round % 7)
            // Each probe counts its batches from 0: key → the last batch it acknowledged.
            var acknowledged: [Int: Int] = [:]
            for line in lines {
                let parts = line.split(separator: " ")
                if parts.count == 3, let batch = Int(parts[1]), let key = Int(parts[2]) {
                    acknowledged[key] = batch
                }
            }
            let store = try PlistFileStore(root: folder.url, format: .binary)
            for index in 0..<4 {
                guard let batch = try await store.load(StorageKey<ProbeBatch>("batch-\(index)")) else {
                    #expect(acknowledged[index] == nil, "round \(round): key \(index) lost")
                    continue
                }
                #expect(batch.round >= acknowledged[index] ?? 0, "round \(round): key \(index) went back")
                #expect(batch.lines.count == 2_000)
                #expect(batch.lines.allSatisfy { $0.hasPrefix("round \(batch.round) key \(index) ") })
            }
        }
        let sizes = try folder.fileNames.map { name in
            (
                name,
                try FileManager.default.attributesOfItem(atPath: folder.file(name).path)[.size] as? Int ?? 0
            )
        }
        let temporary = sizes.filter { $0.0.hasSuffix(".tmp") }.map(\.1).reduce(0, +)
        let live = sizes.filter { $0.0.hasSuffix(".plist") }.map(\.1).reduce(0, +)
        #expect(temporary < live, "leftover temporary bytes \(temporary), live \(live)")
    }

    @Test("JournaledStore: 50 kills, some inside folds, lose no acknowledged change")
    func journaledStore() async throws {
        let folder = try TemporaryFolder()
        var lastAcknowledged = 0
        var killsInsideAFold = 0
        for round in 0..<Self.rounds {
            let lines = try await killProbe(
                ["journal-loop", folder.url.path, "8"], afterAcknowledgements: 1 + (round * 7) % 40,
                delay: .microseconds(500 * (round % 20)))
            for line in lines where line.hasPrefix("ack ") {
                lastAcknowledged = max(lastAcknowledged, Int(line.dropFirst(4)) ?? 0)
            }
            // A fold starts once an append makes the journal 8 lines long and ends by replacing
            // the journal with an empty one: a journal of 8 lines means the kill landed inside.
            let journal = try Data(contentsOf: folder.file("numbers.journal"))
            if journal.filter({ $0 == UInt8(ascii: "\n") }).count >= 8 { killsInsideAFold += 1 }
            let summary = try await runProbe(["journal-check", folder.url.path])
            let fields = summary.split(separator: " ")
            let count = Int(fields[1]) ?? -1
            #expect(fields.count == 8 && fields[7] == "0", "round \(round): \(summary)")
            #expect(count >= lastAcknowledged, "round \(round): \(summary), acknowledged \(lastAcknowledged)")
            #expect(fields[1] == fields[3] && fields[3] == fields[5], "1…n, each once: \(summary)")
        }
        #expect(lastAcknowledged > Self.rounds)
        #expect(killsInsideAFold > 0, "no kill landed inside a fold")
    }

    @Test("UserDefaultsStore: 50 kills mid-save never lose or empty the profile (issue 15, item 4)")
    func userDefaultsStore() async throws {
        let folder = try TemporaryFolder()
        let environment = ["XDG_CONFIG_HOME": folder.url.path]
        var lastAcknowledged = 0
        for round in 0..<Self.rounds {
            let lines = try await killProbe(
                ["defaults-loop", "Profile"], afterAcknowledgements: 1 + (round * 3) % 10,
                environment: environment)
            for line in lines where line.hasPrefix("ack ") {
                lastAcknowledged = max(lastAcknowledged, Int(line.dropFirst(4)) ?? 0)
            }
            let store = try UserDefaultsStore(suiteName: "Profile", environment: environment)
            let profile = try #require(
                try await store.load(StorageKey<ProbeProfile>("profile")), "round \(round)")
            #expect(profile.counter >= lastAcknowledged, "round \(round)")
            #expect(profile.bio.hasPrefix("Counter \(profile.counter) "))
            #expect(try store.propertyList(forKey: "raw") != nil)
        }
        #expect(folder.fileNames.filter { $0.contains(".damaged-") }.isEmpty, "nothing was damaged")
    }
}

/// The probe's types, decoded here from what it stored.
struct ProbeBatch: Codable, Sendable {
    var round: Int
    var lines: [String]
}

struct ProbeProfile: Codable, Sendable {
    var counter: Int
    var bio: String
}
