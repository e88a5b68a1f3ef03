import Foundation

/// A recorded failure with its place in the sources.
package struct TestIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file, relative to the package root when it is inside it.
    package var file: String
    /// The line, from 1.
    package var line: Int
    /// What the assertion said.
    package var message: String

    /// An issue at `file:line`.
    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `Tests/X/Y.swift:12: XCTAssertEqual failed: …`.
    package var description: String { "\(file):\(line): \(message)" }
}

/// Finds where failures happened: XCTest prints `path:line: error: Class.test : message` to its
/// output (its xUnit report says only "failure"), and Swift Testing writes `issueRecorded`
/// events with source locations to the event stream.
package enum TestIssues {
    /// XCTest's failure lines in a `swift test` log, keyed `Class/test`.
    package static func xctestIssues(inLog log: String, relativeTo root: URL) -> [String: [TestIssue]] {
        var issues: [String: [TestIssue]] = [:]
        for line in log.split(separator: "\n") {
            guard let errorRange = line.range(of: ": error: ") else { continue }
            let location = line[..<errorRange.lowerBound]
            guard let colon = location.lastIndex(of: ":"),
                let number = Int(location[location.index(after: colon)...])
            else { continue }
            let file = String(location[..<colon])
            guard file.hasSuffix(".swift") else { continue }
            // `Class.test : message` (Linux) or `-[Module.Class test] : message` (Darwin).
            let rest = line[errorRange.upperBound...]
            guard let separator = rest.range(of: " : ") else { continue }
            var name = String(rest[..<separator.lowerBound])
            if name.hasPrefix("-["), name.hasSuffix("]") {
                name = String(name.dropFirst(2).dropLast()).replacingOccurrences(of: " ", with: ".")
            }
            let parts = name.split(separator: ".")
            guard parts.count >= 2 else { continue }
            let key = "\(parts[parts.count - 2])/\(parts[parts.count - 1])"
            issues[key, default: []].append(
                TestIssue(
                    file: relative(file, to: root), line: number,
                    message: String(rest[separator.upperBound...])))
        }
        return issues
    }

    /// Swift Testing's `issueRecorded` events in an event stream (JSON Lines, version 0), keyed
    /// `Target.Suite/test()` as its xUnit report names tests.
    package static func swiftTestingIssues(inEventStream stream: String, relativeTo root: URL) -> [String:
        [TestIssue]]
    {
        var issues: [String: [TestIssue]] = [:]
        for line in stream.split(separator: "\n") where line.contains("\"issueRecorded\"") {
            guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let payload = record["payload"] as? [String: Any],
                payload["kind"] as? String == "issueRecorded",
                let testID = payload["testID"] as? String
            else { continue }
            let issue = payload["issue"] as? [String: Any]
            if issue?["isKnown"] as? Bool == true { continue }
            let location = issue?["sourceLocation"] as? [String: Any]
            let file = location?["_filePath"] as? String ?? location?["fileID"] as? String ?? "?"
            let messages = (payload["messages"] as? [[String: Any]] ?? []).compactMap {
                $0["text"] as? String
            }
            issues[key(forTestID: testID), default: []].append(
                TestIssue(
                    file: relative(file, to: root), line: location?["line"] as? Int ?? 0,
                    message: messages.joined(separator: " — ")))
        }
        return issues
    }

    /// `Target.Suite/test()/File.swift:3:2` → `Target.Suite/test()`; a test outside any suite,
    /// `Target.test()/File.swift:3:2`, → `Target/test()`.
    static func key(forTestID id: String) -> String {
        var parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = parts.last, last.contains(".swift:") { parts.removeLast() }
        if parts.count >= 2 { return parts.joined(separator: "/") }
        let whole = parts.first ?? id
        guard let dot = whole.firstIndex(of: ".") else { return whole }
        return "\(whole[..<dot])/\(whole[whole.index(after: dot)...])"
    }

    /// Gives each failed test case its issues: XCTest's by `Class/test`, Swift Testing's by
    /// `Suite/test`.
    package static func attach(
        xctest: [String: [TestIssue]], swiftTesting: [String: [TestIssue]],
        to testCases: inout [TestCaseResult]
    ) {
        for index in testCases.indices {
            guard case .failed = testCases[index].outcome else { continue }
            let testCase = testCases[index]
            let className = testCase.suite.split(separator: ".").last.map(String.init) ?? testCase.suite
            testCases[index].issues =
                swiftTesting["\(testCase.suite)/\(testCase.name)"] ?? xctest["\(className)/\(testCase.name)"]
                ?? []
        }
    }

    private static func relative(_ path: String, to root: URL) -> String {
        let prefix = root.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
