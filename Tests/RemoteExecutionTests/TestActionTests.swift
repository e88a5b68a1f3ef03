import Foundation
import RemoteExecution
import RibcageTesting
import Subprocess
import SystemPackage
import Testing

/// A package's Swift Testing suites built here and run on buildbox-casd as a ``TestAction``.
@Suite("A test bundle run as a REAPI action", .timeLimit(.minutes(10)))
struct TestActionTests {
    static let sources = [
        "Package.swift": """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "Remote",
            targets: [
                .target(name: "Answer"),
                .testTarget(name: "AnswerTests", dependencies: ["Answer"], exclude: ["Fixtures"]),
                .testTarget(name: "OtherTests"),
            ])

        """,
        "Sources/Answer/Answer.swift": "public func answer() -> Int { 42 }\n",
        "Tests/AnswerTests/AnswerTests.swift": """
        import Answer
        import Foundation
        import Testing

        @Test func computes() { #expect(answer() == 42) }

        @Test func readsItsFixture() throws {
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/expected.txt")
            #expect(try String(contentsOf: fixture, encoding: .utf8) == "\\(answer())\\n")
        }

        @Test func failsOnPurpose() { #expect(answer() == 41) }

        """,
        "Tests/AnswerTests/Fixtures/expected.txt": "42\n",
        "Tests/OtherTests/OtherTests.swift": "import Testing\n\n@Test func notSelected() {}\n",
    ]

    /// The fixture package, written into a fresh folder.
    static func writePackage() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-test-action-\(UUID().uuidString)", isDirectory: true)
        for (path, text) in sources {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return folder
    }

    static func swift(_ arguments: [String], in package: URL) async throws -> (
        succeeded: Bool, output: String
    ) {
        let result = try await Subprocess.run(
            .name("swift"), arguments: Arguments(arguments),
            workingDirectory: FilePath(package.path), output: .string(limit: 1 << 22),
            error: .string(limit: 1 << 22))
        return (
            result.terminationStatus.isSuccess, result.standardOutput + result.standardError
        )
    }

    /// The test cases of a Swift Testing xUnit report, by name, and whether each failed: read
    /// by the reader `ribcage test` uses for its local runs.
    static func outcomes(ofXUnit report: Data) throws -> [String: Bool] {
        let cases = try XUnitReport(data: report).testCases
        return Dictionary(
            cases.map { testCase in
                if case .failed = testCase.outcome { (testCase.name, true) } else { (testCase.name, false) }
            }, uniquingKeysWith: { first, _ in first })
    }

    static func action(filter: String, in package: URL, withFixture: Bool = true) throws -> TestAction {
        let fixture = package.appendingPathComponent("Tests/AnswerTests/Fixtures/expected.txt")
        return try TestAction(
            packageRoot: package,
            testBundle: package.appendingPathComponent(".build/debug/RemotePackageTests.xctest"),
            filter: filter, files: withFixture ? [fixture] : [], environment: ["PATH": "/usr/bin:/bin"],
            workerImage: "this machine's /usr and toolchain", timeout: .seconds(120))
    }

    @Test(
        "a red run comes back with the per-test results of a local swift test; a green one is answered from the action cache the second time; the run sees only its input root"
    )
    func remoteRuns() async throws {
        let package = try Self.writePackage()
        defer { removeRecordingFailure(package) }
        let build = try await Self.swift(["build", "--build-tests"], in: package)
        try #require(build.succeeded, "the fixture package builds:\n\(build.output.suffix(3_000))")
        let local = try await Self.swift(
            ["test", "--skip-build", "--filter", "AnswerTests", "--xunit-output", "local.xml"], in: package)
        #expect(!local.succeeded, "one test fails on purpose")
        let localOutcomes = try Self.outcomes(
            ofXUnit: try Data(contentsOf: package.appendingPathComponent("local-swift-testing.xml")))
        #expect(localOutcomes.count == 3, "\(localOutcomes)")

        let red = try Self.action(filter: "AnswerTests", in: package)
        let green = try Self.action(filter: "AnswerTests\\.(computes|readsItsFixture)", in: package)
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint) { client in
                try await client.upload(red.blobs)
                let execution = try await client.execute(red.actionDigest, timeout: .seconds(180))
                #expect(execution.result.exitCode != 0)
                let reports = try await TestAction.reports(of: execution.result, from: client)
                let remoteReport = try #require(reports.xunit, "the run wrote its xUnit report")
                #expect(try Self.outcomes(ofXUnit: remoteReport) == localOutcomes)
                let events = String(decoding: try #require(reports.events), as: UTF8.self)
                #expect(events.contains("failsOnPurpose"))
                #expect(!events.contains("notSelected"))

                // The same bundle and fixture: only the Command and the Action are new.
                let uploaded = try await client.upload(green.blobs)
                #expect(uploaded == 2)
                let first = try await client.execute(green.actionDigest, timeout: .seconds(180))
                #expect(first.result.exitCode == 0)
                #expect(!first.cachedResult)
                let greenReports = try await TestAction.reports(of: first.result, from: client)
                let outcomes = try Self.outcomes(ofXUnit: try #require(greenReports.xunit))
                #expect(outcomes.keys.sorted() == ["computes()", "readsItsFixture()"], "\(outcomes)")
                #expect(outcomes.values.allSatisfy { $0 == false })

                let again = try await client.execute(green.actionDigest, timeout: .seconds(180))
                #expect(again.cachedResult)
                #expect(again.result.outputFiles == first.result.outputFiles)

                // The run sees its input root, not this machine's files: without the fixture in
                // it, the test that reads the fixture fails there, though the file is here.
                let bare = try Self.action(
                    filter: "AnswerTests\\.(computes|readsItsFixture)", in: package, withFixture: false)
                try await client.upload(bare.blobs)
                let sandboxed = try await client.execute(bare.actionDigest, timeout: .seconds(180))
                #expect(sandboxed.result.exitCode != 0)
                let bareReports = try await TestAction.reports(of: sandboxed.result, from: client)
                let bareOutcomes = try Self.outcomes(ofXUnit: try #require(bareReports.xunit))
                #expect(bareOutcomes == ["computes()": false, "readsItsFixture()": true])
            }
        }
    }
}
