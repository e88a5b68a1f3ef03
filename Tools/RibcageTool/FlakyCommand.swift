import ArgumentParser
import BlockingWork
import Foundation
import RibcageLint
import RibcagePackage
import RibcageTesting

/// `ribcage flaky`: the tests seen flaking in this package, and their quarantine.
struct FlakyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flaky",
        abstract: "List the tests seen flaking, newest first, or quarantine one.",
        discussion: """
            A test is flaky when it failed and passed with nothing changed: on a retry in the same \
            run (`ribcage test --retry N`), or in two runs with the same test cache key (the same \
            sources, toolchain, flags and inputs; `ribcage test --cache`, shared through \
            --cache-url across machines). Sightings are kept in .build/ribcage-flaky-log.jsonl. A \
            test not seen flaking for --cooldown-days is cleared from the list.

            `--quarantine TEST` writes TEST's row in Project.swift.md's Quarantine table, which \
            `ribcage test` applies everywhere: `mute` runs it without failing the run, `skip` \
            never starts it.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var package: PackageOptions

    @Option(help: "text or json.")
    var format: Format = .text

    @Option(help: "Days without a flake after which a test is cleared from the list.")
    var cooldownDays: Int = 14

    @Option(
        help: "Quarantine this test (Target.Suite/name, as `ribcage test` prints it) in Project.swift.md.")
    var quarantine: String?

    @Option(help: "With --quarantine: mute (run, but a failure does not fail the run) or skip (never start).")
    var mode: QuarantineMode = .mute

    @Option(help: "With --quarantine: why, for whoever lifts it (default: what the log saw).")
    var reason: String?

    func validate() throws {
        guard cooldownDays >= 0 else { throw ValidationError("--cooldown-days takes 0 or more days.") }
    }

    func run() async throws {
        try await RibcageError.reported {
            let root = try package.root()
            let log = FlakyLog(packageAt: root)
            let (events, unreadable) = try await log.read()
            if unreadable > 0 {
                StandardError.write(
                    "warning: \(unreadable) line\(unreadable == 1 ? "" : "s") of \(log.file.path) could not be read and \(unreadable == 1 ? "was" : "were") left out\n"
                )
            }
            let manifest = root.appendingPathComponent("Project.swift.md")
            let text = try await DedicatedThread.run(named: "ribcage-flaky") {
                FileManager.default.fileExists(atPath: manifest.path)
                    ? try String(contentsOf: manifest, encoding: .utf8) : nil
            }
            let current = try text.map { try Quarantine(markdown: $0) } ?? Quarantine()
            let flaky = FlakyLog.flakyTests(
                events, now: Date(), cooldown: TimeInterval(cooldownDays) * 86_400, quarantine: current)
            if let test = quarantine {
                try await self.quarantine(test, root: root, manifest: manifest, text: text, seen: flaky)
                return
            }
            switch format {
            case .text: print(Self.table(flaky), terminator: "")
            case .json: print(try Self.json(flaky))
            }
        }
    }

    private func quarantine(
        _ test: String, root: URL, manifest: URL, text: String?, seen: [FlakyTest]
    ) async throws {
        guard let text else {
            throw RibcageError.badQuarantine("there is no Project.swift.md at \(root.path) to hold the table")
        }
        let described = try await PackageLoader.load(packageAt: root, note: StandardError.writeLine)
        let sources = try await Linter.readSourcesOffThePool(of: described, root: root)
        // The test names its target's module (`My_Tests` for a target named `My-Tests`).
        let module = TestCaseFilter.testTarget(ofTest: test)
        guard
            let target = described.targets.first(where: {
                $0.isTest && TestCaseFilter.moduleName(ofTarget: $0.name) == module
            }),
            Linter.declares(test, in: sources[target.name] ?? [])
        else {
            throw RibcageError.badQuarantine(
                "\(test) is not a test of this package (write it Target.Suite/name, as `ribcage test` prints it)"
            )
        }
        let sighting = seen.first { $0.test == test }
        let why =
            reason
            ?? sighting.map { "flaky: failed \($0.failed), passed \($0.passed) (ribcage flaky)" }
            ?? "quarantined by hand"
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let entry = Quarantine.Entry(
            test: test, mode: mode, reason: why, since: formatter.string(from: Date()))
        let updated = try Quarantine.writing(entry, into: text)
        do {
            try await DedicatedThread.run(named: "ribcage-flaky") {
                try Data(updated.utf8).write(to: manifest, options: .atomic)
            }
        } catch {
            throw RibcageError.outputUnwritable(path: manifest.path, reason: error.localizedDescription)
        }
        print("Quarantined \(test) (\(mode.rawValue)) in Project.swift.md")
    }

    /// The text listing: a row per flaky test, newest first.
    static func table(_ flaky: [FlakyTest]) -> String {
        guard !flaky.isEmpty else { return "No flaky tests seen.\n" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let headings = [
            "Test", "Failed", "Passed", "First seen (UTC)", "Last seen (UTC)", "Machines", "Quarantine",
        ]
        let rows = flaky.map { test in
            [
                test.test, "\(test.failed)", "\(test.passed)", formatter.string(from: test.firstSeen),
                formatter.string(from: test.lastSeen), test.hosts.joined(separator: ", "),
                test.quarantine?.rawValue ?? "—",
            ]
        }
        let widths = headings.indices.map { column in
            ([headings] + rows).map { $0[column].count }.max() ?? 0
        }
        let line = { (cells: [String]) in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(headings)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// The `--format json` listing: an array of ``FlakyTest``, dates in ISO 8601.
    static func json(_ flaky: [FlakyTest]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(flaky), as: UTF8.self)
    }
}

extension QuarantineMode: ExpressibleByArgument {}
