import Foundation
import RibcageLint
import RibcagePackage
import RibcageTesting
import Testing

@Suite("Project.swift.md's Quarantine table")
struct QuarantineTests {
    static let markdown = """
        # Project

        ## Quarantine

        | Test | Mode | Reason | Since |
        |------|------|--------|-------|
        | `StoreTests.SyncTests/testRace` | mute | races the watcher | 2026-11-20 |
        | `StoreTests/slow()` | skip | takes the pool | 2026-11-21 |

        ## Decisions
        """

    @Test("reads each row's test, mode, reason and day")
    func reads() throws {
        let quarantine = try Quarantine(markdown: Self.markdown)
        #expect(
            quarantine.entries == [
                .init(
                    test: "StoreTests.SyncTests/testRace", mode: .mute, reason: "races the watcher",
                    since: "2026-11-20"),
                .init(test: "StoreTests/slow()", mode: .skip, reason: "takes the pool", since: "2026-11-21"),
            ])
        #expect(quarantine.skipped(in: ["StoreTests"]).map(\.test) == ["StoreTests/slow()"])
        #expect(quarantine.skipped(in: ["OtherTests"]).isEmpty)
        #expect(try Quarantine(markdown: "# No table\n").entries.isEmpty)
    }

    @Test("a row that cannot be applied as written is an error, not half a quarantine")
    func badRows() {
        let table = "## Quarantine\n\n| Test | Mode | Reason | Since |\n|---|---|---|---|\n"
        #expect(throws: RibcageError.badQuarantine("A.B/testC's mode is 'later'; it must be mute or skip")) {
            try Quarantine(markdown: table + "| A.B/testC | later | x | y |\n")
        }
        #expect(throws: RibcageError.badQuarantine("A.B/testC has two rows")) {
            try Quarantine(markdown: table + "| A.B/testC | mute | x | y |\n| A.B/testC | skip | x | y |\n")
        }
        #expect(throws: RibcageError.self) { try Quarantine(markdown: table + "| testC | mute | x | y |\n") }
    }

    @Test("marks muted tests, and adds the skipped tests that never started as skipped")
    func apply() throws {
        let quarantine = try Quarantine(markdown: Self.markdown)
        let ran = TestSuiteResult(
            suite: TestSuite(testTarget: "StoreTests", modules: ["Store"]),
            testCases: [
                TestCaseResult(
                    suite: "StoreTests.SyncTests", name: "testRace", duration: 0.1,
                    outcome: .failed(message: "lost")),
                TestCaseResult(
                    suite: "StoreTests.SyncTests", name: "testFine", duration: 0.1, outcome: .passed),
            ], seconds: 0.2, runnerFailure: nil)
        let applied = try #require(quarantine.apply(to: [ran]).first)
        #expect(applied.failed == 0)
        #expect(applied.muted == 1)
        #expect(applied.mutedFailures.map(\.test) == ["StoreTests.SyncTests/testRace"])
        #expect(applied.quarantineSkipped == 1)
        #expect(applied.skipped == 1)
        #expect(applied.testCases.last?.outcome == .skipped(reason: "quarantined: takes the pool"))
        #expect(!applied.isCleanlyGreen)
        #expect(
            TestReportTable.closingLine([applied]) == "1 passed, 0 failed, 1 muted, 1 skipped (1 quarantined)"
        )
    }

    @Test("writes a row: replacing the test's own, else after the last, else in a new table")
    func writes() throws {
        let entry = Quarantine.Entry(
            test: "StoreTests/slow()", mode: .mute, reason: "a | b", since: "2026-11-28")
        let replaced = try Quarantine.writing(entry, into: Self.markdown)
        #expect(try Quarantine(markdown: replaced).entry(for: "StoreTests/slow()")?.mode == .mute)
        #expect(try Quarantine(markdown: replaced).entries.count == 2)
        #expect(replaced.contains("| `StoreTests/slow()` | mute | a / b | 2026-11-28 |"))

        let other = Quarantine.Entry(test: "StoreTests/new()", mode: .skip, reason: "r", since: "2026-11-28")
        let added = try Quarantine.writing(other, into: Self.markdown)
        #expect(try Quarantine(markdown: added).entries.map(\.test).last == "StoreTests/new()")
        #expect(added.hasSuffix("## Decisions"))

        let created = try Quarantine.writing(other, into: "# Project\n\n## Modules\n")
        #expect(try Quarantine(markdown: created).entries == [other])
        #expect(created.hasPrefix("# Project\n\n## Modules\n\n## Quarantine\n"))
    }

    @Test("lint finds quarantined tests that do not exist, and rows it cannot read")
    func lint() {
        var manifest = ProjectManifest(markdown: "")
        manifest.quarantineRows = [
            ["StoreTests.SyncTests/testRace", "mute", "r", "d"],
            ["StoreTests/slow()", "skip", "r", "d"],
            ["StoreTests.SyncTests/testGone", "mute", "r", "d"],
            ["GhostTests/any()", "skip", "r", "d"],
            ["StoreTests/slow()", "mute", "r", "d"],
            ["StoreTests/odd()", "maybe", "r", "d"],
        ]
        let linter = Linter(
            package: DescribedPackage(
                name: "P", path: "/p",
                targets: [.init(name: "StoreTests", type: "test", path: "Tests/StoreTests")]),
            manifest: manifest,
            sources: [
                "StoreTests": [
                    .init(
                        path: "Tests/StoreTests/SyncTests.swift",
                        text: "final class SyncTests: XCTestCase {\n    func testRace() {}\n}\n"),
                    .init(path: "Tests/StoreTests/Slow.swift", text: "@Test func slow() async {}\n"),
                ]
            ],
            toolchain: LintRuleTests.toolchain)
        let messages = linter.diagnostics().filter { $0.rule == "quarantine" }.map(\.message)
        #expect(
            messages.sorted() == [
                "Project.swift.md's Quarantine table: StoreTests/odd()'s mode is 'maybe'; it must be mute or skip.",
                "StoreTests/slow() is quarantined twice",
                "quarantined test GhostTests/any(): the package has no test target GhostTests",
                "quarantined test StoreTests.SyncTests/testGone is not declared in StoreTests's sources (renamed or deleted? lift its quarantine)",
            ])
    }

    @Test("a row names a test by its target's module: Other_Tests for a target named Other-Tests")
    func moduleNamedRows() {
        var manifest = ProjectManifest(markdown: "")
        manifest.quarantineRows = [
            ["Other_Tests/slow()", "skip", "r", "d"], ["Other-Tests/slow()", "skip", "r", "d"],
        ]
        let linter = Linter(
            package: DescribedPackage(
                name: "P", path: "/p",
                targets: [.init(name: "Other-Tests", type: "test", path: "Tests/Other-Tests")]),
            manifest: manifest,
            sources: [
                "Other-Tests": [
                    .init(path: "Tests/Other-Tests/Slow.swift", text: "@Test func slow() async {}\n")
                ]
            ],
            toolchain: LintRuleTests.toolchain)
        #expect(
            linter.diagnostics().filter { $0.rule == "quarantine" }.map(\.message) == [
                "quarantined test Other-Tests/slow(): the package has no test target Other-Tests"
            ])
        let quarantine = Quarantine(entries: [
            .init(test: "Other_Tests/slow()", mode: .skip, reason: "r", since: "d")
        ])
        #expect(quarantine.skipped(in: ["Other-Tests"]).map(\.test) == ["Other_Tests/slow()"])
    }
}
