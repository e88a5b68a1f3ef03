import BlockingWork
import Foundation
import RibcagePackage

/// One sighting of a flaky test: it failed and passed with nothing changed.
package struct FlakyEvent: Sendable, Equatable, Codable {
    /// How the flakiness showed.
    package enum Evidence: String, Sendable, Codable {
        /// Failed, then passed when `--retry` ran it again in the same run.
        case retry
        /// Passed in one run and failed in another with the same test cache key: the same
        /// sources, toolchain, flags, declared inputs and recorded inputs.
        case sameKey = "same key"
    }

    /// `Target.Suite/name`.
    package var test: String
    package var testTarget: String
    /// Attempts that failed and that passed.
    package var failed: Int
    package var passed: Int
    package var evidence: Evidence
    /// The test cache key the runs shared, when the cache was on.
    package var key: String?
    /// The commit tested, `+changes` when the tree had edits.
    package var commit: String?
    /// The machines the passing and failing runs were on.
    package var hosts: [String]
    package var date: Date

    package init(
        test: String, testTarget: String, failed: Int, passed: Int, evidence: Evidence, key: String?,
        commit: String?, hosts: [String], date: Date
    ) {
        self.test = test
        self.testTarget = testTarget
        self.failed = failed
        self.passed = passed
        self.evidence = evidence
        self.key = key
        self.commit = commit
        self.hosts = hosts
        self.date = date
    }
}

/// A flaky test as `ribcage flaky` lists it: every sighting of it within the cooldown, added up.
package struct FlakyTest: Sendable, Equatable, Codable {
    package var test: String
    package var testTarget: String
    /// Sightings, and the failed and passed attempts they saw.
    package var sightings: Int
    package var failed: Int
    package var passed: Int
    package var firstSeen: Date
    package var lastSeen: Date
    package var hosts: [String]
    /// `mute` or `skip` when Project.swift.md quarantines it.
    package var quarantine: QuarantineMode?

    private enum CodingKeys: String, CodingKey {
        case test, testTarget, sightings, failed, passed, firstSeen, lastSeen, hosts, quarantine
    }

    /// Writes every field, `quarantine` as `null` when there is none, so a script finds it.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(test, forKey: .test)
        try container.encode(testTarget, forKey: .testTarget)
        try container.encode(sightings, forKey: .sightings)
        try container.encode(failed, forKey: .failed)
        try container.encode(passed, forKey: .passed)
        try container.encode(firstSeen, forKey: .firstSeen)
        try container.encode(lastSeen, forKey: .lastSeen)
        try container.encode(hosts, forKey: .hosts)
        try container.encode(quarantine, forKey: .quarantine)
    }
}

/// The flaky tests seen in a package, as JSON Lines in `.build/ribcage-flaky-log.jsonl`: one
/// ``FlakyEvent`` a line, appended by `ribcage test`, read by `ribcage flaky`.
///
/// Appends only, so two runs writing at once each add whole lines (`O_APPEND`), and a line cut
/// short by a crash costs that line alone: it is skipped and counted, never the whole log.
package struct FlakyLog: Sendable {
    /// The log file.
    package var file: URL

    /// The log of the package at `root`.
    package init(packageAt root: URL) {
        file = root.appendingPathComponent(".build/ribcage-flaky-log.jsonl")
    }

    /// A log at `file`.
    package init(file: URL) {
        self.file = file
    }

    /// Adds `events` at the end.
    package func append(_ events: [FlakyEvent]) async throws {
        guard !events.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        // Starting on a line of its own: a line an earlier run was killed in the middle of
        // stays alone, and blank lines are skipped when read.
        var lines = Data([0x0A])
        for event in events {
            lines.append(try encoder.encode(event))
            lines.append(0x0A)
        }
        let file = file
        let written = lines
        try await DedicatedThread.run(named: "ribcage-flaky-log") {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: written)
            try handle.close()
        }
    }

    /// Every event in the log, and how many lines could not be read; no log is no events.
    package func read() async throws -> (events: [FlakyEvent], unreadableLines: Int) {
        let file = file
        let data: Data? = try await DedicatedThread.run(named: "ribcage-flaky-log") {
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            return try Data(contentsOf: file)
        }
        guard let data else { return ([], 0) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var events: [FlakyEvent] = []
        var unreadable = 0
        for line in data.split(separator: 0x0A) where !line.isEmpty {
            if let event = try? decoder.decode(FlakyEvent.self, from: Data(line)) {
                events.append(event)
            } else {
                unreadable += 1
            }
        }
        return (events, unreadable)
    }

    /// The flaky tests among `events`, newest sighting first. A test not seen flaking within
    /// `cooldown` of `now` is cleared: it is left out (its events stay in the log).
    package static func flakyTests(
        _ events: [FlakyEvent], now: Date, cooldown: TimeInterval, quarantine: Quarantine
    ) -> [FlakyTest] {
        let recent = events.filter { now.timeIntervalSince($0.date) <= cooldown }
        return Dictionary(grouping: recent, by: \.test).compactMap { test, sightings in
            guard let first = sightings.min(by: { $0.date < $1.date }),
                let last = sightings.max(by: { $0.date < $1.date })
            else { return nil }
            return FlakyTest(
                test: test, testTarget: last.testTarget, sightings: sightings.count,
                failed: sightings.reduce(0) { $0 + $1.failed },
                passed: sightings.reduce(0) { $0 + $1.passed },
                firstSeen: first.date, lastSeen: last.date,
                hosts: Set(sightings.flatMap(\.hosts)).sorted(), quarantine: quarantine.entry(for: test)?.mode
            )
        }
        .sorted { ($0.lastSeen, $1.test) > ($1.lastSeen, $0.test) }
    }

    /// The sightings of the flaky tests among `results`, found by retries.
    package static func events(
        retriedIn results: [TestSuiteResult], keys: [String: String], commit: String?, host: String,
        date: Date
    ) -> [FlakyEvent] {
        results.flatMap { result in
            result.testCases.filter(\.isFlaky).map { testCase in
                FlakyEvent(
                    test: testCase.id, testTarget: result.suite.testTarget,
                    failed: testCase.failedAttempts.count,
                    passed: 1, evidence: .retry, key: keys[result.suite.testTarget], commit: commit,
                    hosts: [host],
                    date: date)
            }
        }
    }
}
