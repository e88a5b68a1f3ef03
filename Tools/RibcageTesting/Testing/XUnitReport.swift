import Foundation
import RibcagePackage

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One test case from an xUnit (JUnit-style) XML report.
package struct TestCaseResult: Sendable, Equatable {
    /// How a test case ended.
    package enum Outcome: Sendable, Equatable {
        /// The test ran and recorded no failure.
        case passed
        /// The test failed; the message is the runner's first failure message.
        case failed(message: String)
        /// The test did not run; the reason is the runner's, when it gave one.
        case skipped(reason: String)
    }

    /// The test's suite or class, qualified by its module: `AndTests.DoTests`.
    package var suite: String
    /// The test's name: `testOne` (XCTest) or `runsBlock()` (Swift Testing).
    package var name: String
    /// Whether Swift Testing ran it (its name ends with its arguments' brackets).
    package var isSwiftTesting: Bool { name.hasSuffix(")") }
    /// Seconds the test took, when the runner reported it.
    package var duration: Double?
    /// How it ended.
    package var outcome: Outcome
    /// Where and why it failed, from the run's log: XCTest's report says only "failure", and
    /// neither report gives a file and line.
    package var issues: [TestIssue] = []

    /// The messages of the other attempts that failed, when failed tests were run again
    /// (`ribcage test --retry`): for a test that passed on a retry, every failure before it
    /// (a flaky test); for one that never passed, the retries' failures after ``outcome``'s.
    package var failedAttempts: [String] = []
    /// The quarantine that applied to it, from Project.swift.md's Quarantine table.
    package var quarantine: QuarantineMode?

    /// The test target it belongs to: the first component of ``suite``.
    package var testTarget: String { String(suite.prefix { $0 != "." }) }

    /// The name `ribcage test` prints and Project.swift.md's Quarantine table uses:
    /// `Target.Suite/name` (`AndTests.DoTests/testOne`, `AndTests/runsBlock()` at the top level).
    package var id: String { "\(suite)/\(name)" }

    /// What to say of its failure: each issue with its file and line when the log gave them,
    /// else the report's message (XCTest's report says only "failure").
    package var failureSummary: String? {
        guard case .failed(let message) = outcome else { return nil }
        return issues.isEmpty ? message : issues.map(\.description).joined(separator: "\n")
    }

    /// Failed, but passed on a retry.
    package var isFlaky: Bool { outcome == .passed && !failedAttempts.isEmpty }

    /// Failed and muted: it ran, and its failure does not fail the run.
    package var isMutedFailure: Bool {
        if case .failed = outcome { quarantine == .mute } else { false }
    }

    /// Failed, and counts as a failure of the run.
    package var isCountedFailure: Bool {
        if case .failed = outcome { quarantine != .mute } else { false }
    }

    /// Creates a test case result.
    package init(suite: String, name: String, duration: Double?, outcome: Outcome) {
        self.suite = suite
        self.name = name
        self.duration = duration
        self.outcome = outcome
    }
}

/// The test cases of one xUnit XML file, as `swift test --xunit-output` writes it.
///
/// Both of the toolchain's test libraries write this format: XCTest to the file named by
/// `--xunit-output` (only under `--parallel`), Swift Testing to a sibling with a
/// `-swift-testing` suffix. XCTest's writer does not mark `XCTSkip`ped tests as skipped; they
/// appear as passed there.
package struct XUnitReport: Sendable, Equatable {
    /// The test cases, in document order.
    package var testCases: [TestCaseResult]

    /// An xUnit file that is not well-formed XML, or not an xUnit report.
    package struct ParseError: Error, CustomStringConvertible, Equatable {
        /// The file, or `<data>` when parsing bytes.
        package var file: String
        /// What was wrong.
        package var reason: String
        /// A one-line description naming the file.
        package var description: String { "Unreadable xUnit report \(file): \(reason)" }
    }

    /// Parses an xUnit document.
    ///
    /// - Throws: ``ParseError`` when the data is not well-formed XML or its root is not
    ///   `testsuites` or `testsuite`.
    package init(data: Data, file: String = "<data>") throws {
        // XMLParser rather than XMLDocument: on Linux, XMLDocument quietly "recovers" truncated
        // files, which would turn a report cut short by a crash into a green run.
        let parser = XMLParser(data: data)
        let collector = XUnitCollector()
        parser.delegate = collector
        _ = parser.parse()
        if let error = parser.parserError {
            let code = (error as NSError).code
            throw ParseError(
                file: file, reason: "not well-formed XML (parser error \(code) at line \(parser.lineNumber))")
        }
        guard let root = collector.rootElement, ["testsuites", "testsuite"].contains(root) else {
            throw ParseError(file: file, reason: "the root element is not <testsuites> or <testsuite>")
        }
        testCases = collector.testCases
    }

    /// Parses the xUnit file at `url`.
    package init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ParseError(file: url.path, reason: "cannot be read (\(error.localizedDescription))")
        }
        try self.init(data: data, file: url.path)
    }

    /// Creates a report from test cases that are already known.
    package init(testCases: [TestCaseResult]) {
        self.testCases = testCases
    }
}

/// Turns XMLParser's events into test cases.
private final class XUnitCollector: NSObject, XMLParserDelegate {
    private(set) var rootElement: String?
    private(set) var testCases: [TestCaseResult] = []

    private var current: TestCaseResult?
    /// The message attribute of the open `<failure>` or `<skipped>` element, if it had one.
    private var pendingMessage: String?
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        if rootElement == nil { rootElement = elementName }
        switch elementName {
        case "testcase":
            current = TestCaseResult(
                suite: attributes["classname"] ?? "", name: attributes["name"] ?? "(unnamed)",
                duration: attributes["time"].flatMap(Double.init), outcome: .passed)
        case "failure", "error", "skipped":
            pendingMessage = attributes["message"]
            text = ""
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        let message = (pendingMessage ?? text).trimmingCharacters(in: .whitespacesAndNewlines)
        switch elementName {
        case "testcase":
            if let current { testCases.append(current) }
            current = nil
        case "failure", "error":
            // The first failure is the one worth showing; later ones are usually its echoes.
            if case .failed = current?.outcome {} else { current?.outcome = .failed(message: message) }
        case "skipped":
            if case .failed = current?.outcome {} else { current?.outcome = .skipped(reason: message) }
        default:
            break
        }
    }
}
