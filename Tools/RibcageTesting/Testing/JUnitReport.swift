import BlockingWork
import Foundation
import RibcagePackage

/// One JUnit XML document for a whole `ribcage test` run (`--junit-output`), as Jenkins, GitLab
/// and most CI systems read test results.
///
/// A `<testsuite>` per test target. Retries use Maven Surefire's elements, which those readers
/// know: a test that failed and then passed carries a `<flakyFailure>` per failed attempt; one
/// that failed every time carries its first failure as `<failure>` and each retry's as
/// `<rerunFailure>`. A skipped test, quarantined or not, is `<skipped>`; a muted test that
/// failed is reported as skipped too, with its failure in the message, so the CI system does
/// not fail the build on it. A test process that crashed is an `<error>` on a test case named
/// `(test run)`.
package struct JUnitReport: Sendable {
    /// The results, one per test target that ran.
    package var results: [TestSuiteResult]
    /// When the run started.
    package var timestamp: Date
    /// The machine it ran on.
    package var hostname: String

    package init(results: [TestSuiteResult], timestamp: Date, hostname: String) {
        self.results = results
        self.timestamp = timestamp
        self.hostname = hostname
    }

    /// The document's text.
    package var xml: String {
        let counts = results.map(Counts.init)
        let total = counts.reduce(Counts()) { $0 + $1 }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text +=
            "<testsuites name=\"ribcage test\" tests=\"\(total.tests)\" failures=\"\(total.failures)\" "
            + "errors=\"\(total.errors)\" time=\"\(Self.seconds(results.reduce(0) { $0 + $1.seconds }))\">\n"
        for (result, count) in zip(results, counts) {
            text +=
                "  <testsuite name=\(Self.quoted(result.suite.testTarget)) tests=\"\(count.tests)\" "
                + "failures=\"\(count.failures)\" errors=\"\(count.errors)\" skipped=\"\(count.skipped)\" "
                + "time=\"\(Self.seconds(result.seconds))\" timestamp=\(Self.quoted(Self.isoDate(timestamp))) "
                + "hostname=\(Self.quoted(hostname))>\n"
            for testCase in result.testCases { text += Self.element(for: testCase) }
            if let crash = result.runnerFailure {
                text +=
                    "    <testcase classname=\(Self.quoted(result.suite.testTarget)) name=\"(test run)\">\n"
                    + "      <error type=\"crash\" message=\(Self.quoted(crash))/>\n    </testcase>\n"
            }
            text += "  </testsuite>\n"
        }
        return text + "</testsuites>\n"
    }

    /// Writes the document to `file`, making its folder.
    ///
    /// - Throws: ``RibcageError/outputUnwritable(path:reason:)``.
    package func write(to file: URL) async throws {
        let text = xml
        do {
            try await DedicatedThread.run(named: "ribcage-junit") {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file, options: .atomic)
            }
        } catch {
            throw RibcageError.outputUnwritable(path: file.path, reason: error.localizedDescription)
        }
    }

    private struct Counts {
        var tests = 0
        var failures = 0
        var errors = 0
        var skipped = 0

        init() {}

        init(_ result: TestSuiteResult) {
            tests = result.testCases.count + (result.runnerFailure == nil ? 0 : 1)
            failures = result.testCases.count(where: \.isCountedFailure)
            errors = result.runnerFailure == nil ? 0 : 1
            skipped = result.skipped + result.muted
        }

        static func + (lhs: Counts, rhs: Counts) -> Counts {
            var sum = lhs
            sum.tests += rhs.tests
            sum.failures += rhs.failures
            sum.errors += rhs.errors
            sum.skipped += rhs.skipped
            return sum
        }
    }

    private static func element(for testCase: TestCaseResult) -> String {
        let open =
            "    <testcase classname=\(quoted(testCase.suite)) name=\(quoted(testCase.name))"
            + (testCase.duration.map { " time=\"\(seconds($0))\"" } ?? "")
        var children: [String] = []
        switch testCase.outcome {
        case .passed:
            children = testCase.failedAttempts.map {
                "<flakyFailure type=\"failure\" message=\(quoted($0))/>"
            }
        case .failed(let message) where testCase.quarantine == .mute:
            let failure = testCase.failureSummary ?? message
            children = ["<skipped message=\(quoted("quarantined (mute), failed: \(failure)"))/>"]
        case .failed(let message):
            children =
                ["<failure type=\"failure\" message=\(quoted(testCase.failureSummary ?? message))/>"]
                + testCase.failedAttempts.map { "<rerunFailure type=\"failure\" message=\(quoted($0))/>" }
        case .skipped(let reason):
            children = ["<skipped message=\(quoted(reason))/>"]
        }
        guard !children.isEmpty else { return open + "/>\n" }
        return open + ">\n" + children.map { "      \($0)\n" }.joined() + "    </testcase>\n"
    }

    /// Seconds with at most three decimals, as Surefire's schema requires.
    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", max(0, value.isFinite ? value : 0))
    }

    private static func isoDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `text` as a double-quoted attribute value. Characters XML 1.0 cannot hold at all (most
    /// control characters) become `?`, and line breaks are kept as character references.
    static func quoted(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
                escaped += "?"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
