import Foundation
import RibcageTool
import Testing

/// `ribcage lint` on real packages we did not write: it must print exactly the findings that
/// were checked by hand (``ThirdPartyFindings``), so every finding it prints is true.
@Suite("ribcage lint on third-party packages")
struct ThirdPartyLintTests {
    @Test("prints exactly the reviewed findings", arguments: ThirdPartyPackage.allCases)
    func reviewedFindings(_ package: ThirdPartyPackage) async throws {
        let expected =
            switch package {
            case .argumentParser: ThirdPartyFindings.argumentParser
            case .nio: ThirdPartyFindings.nio
            case .hummingbird: ThirdPartyFindings.hummingbird
            }
        let root = try await package.checkout()
        let lint = try await RibcageExecutableTests.ribcage(["lint", "--path", root.path])
        let lines = lint.outputText.split(separator: "\n").map(String.init)
        let findings = lines.dropLast()
        let expectedLines = expected.split(separator: "\n").map(String.init)
        let unexpected = Set(findings).subtracting(expectedLines).sorted()
        let missing = Set(expectedLines).subtracting(findings).sorted()
        #expect(unexpected.isEmpty, "printed but not reviewed:\n\(unexpected.joined(separator: "\n"))")
        #expect(missing.isEmpty, "reviewed but no longer printed:\n\(missing.joined(separator: "\n"))")
        let errors = expectedLines.filter { $0.contains(": error: ") }.count
        let warnings = expectedLines.count - errors
        #expect(
            lines.last
                == "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        #expect(lint.status == (errors > 0 ? 1 : 0))
    }
}
