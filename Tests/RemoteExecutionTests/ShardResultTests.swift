import Foundation
import Testing

@testable import RemoteExecution
@testable import RibcageTesting

/// How a test target's row is put together from its shards' remote runs.
@Suite("A test target's result from its shards")
struct ShardResultTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "ribcage-shard-results-\(UUID().uuidString)", isDirectory: true)
    let suite = TestSuite(testTarget: "ShopTests", modules: ["Shop"])

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A swift-testing xUnit report with the given cases, each passed unless its name is in
    /// `failed`.
    static func report(_ cases: [String], failed: Set<String> = []) -> Data {
        let body = cases.map { name in
            failed.contains(name)
                ? #"<testcase classname="ShopTests.Shelves" name="\#(name)" time="0.1"><failure message="no"/></testcase>"#
                : #"<testcase classname="ShopTests.Shelves" name="\#(name)" time="0.1"/>"#
        }
        return Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites><testsuite name="TestResults" errors="0" tests="\(cases.count)" failures="\(failed.count)" skipped="0" time="0.2">
            \(body.joined(separator: "\n"))
            </testsuite></testsuites>
            """.utf8)
    }

    func shard(
        _ index: Int, exitCode: Int32, report: Data?, timedOut: Bool = false, cached: Bool = false
    ) -> RemoteTestRunner.Finished {
        var result = REAPI.ActionResult()
        result.exitCode = exitCode
        return RemoteTestRunner.Finished(
            suite,
            execution: RemoteExecutionClient.Execution(
                result: result, cachedResult: cached, message: "", actionTimedOut: timedOut),
            reports: TestAction.Reports(
                xunit: report, events: nil, standardOutput: Data(), standardError: Data()),
            log: folder.appendingPathComponent("ShopTests-shard-\(index)-remote.log"), packageRoot: folder,
            timeout: .seconds(8))
    }

    @Test("the shards' tests add up; a shard that selected no test is no failure")
    func addsUp() {
        defer { removeRecordingFailure(folder) }
        let result = RemoteTestRunner.Finished.result(
            of: suite,
            fromShards: [
                shard(1, exitCode: 0, report: Self.report(["holds()", "stands()"]), cached: true),
                shard(2, exitCode: RemoteTestRunner.Finished.noTestMatched, report: Self.report([])),
                shard(3, exitCode: 0, report: Self.report(["peel()"])),
            ])
        #expect(result.testCases.map(\.name).sorted() == ["holds()", "peel()", "stands()"])
        #expect(result.runnerFailure == nil)
        #expect(result.passed == 3 && result.failed == 0)
        #expect(result.place == .remote, "one shard ran, though another came from the cache")
    }

    @Test("a target none of whose shards selected a test fails, whole or split")
    func nothingSelected() {
        defer { removeRecordingFailure(folder) }
        for count in [1, 2] {
            let result = RemoteTestRunner.Finished.result(
                of: suite,
                fromShards: (1...count).map {
                    shard($0, exitCode: RemoteTestRunner.Finished.noTestMatched, report: Self.report([]))
                })
            #expect(result.runnerFailure?.contains("no test of ShopTests matched") == true, "\(result)")
            #expect(result.failed == 1)
        }
        let crashed = shard(1, exitCode: RemoteTestRunner.Finished.noTestMatched, report: nil)
        #expect(!crashed.matchedNoTest, "69 without a report is a run that ended early")
        #expect(crashed.result.runnerFailure != nil)
    }

    @Test("stopped at its timeout only when every red shard was: another red sends the target here")
    func timeoutAndRed() {
        defer { removeRecordingFailure(folder) }
        let timedOut = shard(1, exitCode: 1, report: Self.report(["waits()"]), timedOut: true)
        let red = shard(2, exitCode: 1, report: Self.report(["peel()"], failed: ["peel()"]))
        let green = shard(3, exitCode: 0, report: Self.report(["holds()"]))
        let both = RemoteTestRunner.Finished.result(of: suite, fromShards: [timedOut, red, green])
        #expect(both.failed > 0 && !both.stoppedAtTimeout)
        let onlyTimeout = RemoteTestRunner.Finished.result(of: suite, fromShards: [timedOut, green])
        #expect(onlyTimeout.failed > 0 && onlyTimeout.stoppedAtTimeout)
    }
}
