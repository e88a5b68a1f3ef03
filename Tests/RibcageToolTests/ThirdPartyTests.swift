import Foundation
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

/// `ribcage test --list` on real packages: test targets mapped to modules by their dependencies.
@Suite("ribcage test's mapping on third-party packages")
struct ThirdPartyTestMappingTests {
    @Test("swift-argument-parser: a module selects the test targets that depend on it, each row its own name")
    func argumentParser() async throws {
        let root = try await ThirdPartyPackage.argumentParser.checkout()
        let module = try await RibcageExecutableTests.ribcage([
            "test", "--list", "ArgumentParser", "--path", root.path,
        ])
        #expect(module.succeeded, "\(module.errorText)")
        #expect(
            module.outputText == """
                Test target                        Tests
                ArgumentParserEndToEndTests        ArgumentParser, ArgumentParserTestHelpers
                ArgumentParserPackageManagerTests  ArgumentParser, ArgumentParserTestHelpers
                ArgumentParserUnitTests            ArgumentParser, ArgumentParserTestHelpers

                """)
        let all = try await RibcageExecutableTests.ribcage(["test", "--list", "--path", root.path])
        let rows = all.outputText.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .prefix { !$0.isEmpty }
        #expect(rows.count == 7)
        #expect(
            Set(rows.map { $0.split(separator: " ")[0] }).count == 7, "every row names its own test target")
        #expect(
            all.outputText.hasSuffix(
                "\nNo test target depends on: color, default-as-flag, generate-docc-reference, generate-manual, math, repeat, roll\n"
            ))
    }

    @Test("swift-nio: a test target's name selects just it; a library selects every test target that uses it")
    func nio() async throws {
        let root = try await ThirdPartyPackage.nio.checkout()
        let one = try await RibcageExecutableTests.ribcage([
            "test", "--list", "NIOHTTP1Tests", "--path", root.path,
        ])
        #expect(one.outputText.split(separator: "\n").count == 2, "\(one.outputText)")
        // NIOTestUtils is a library that four test targets use besides its own.
        let module = try await RibcageExecutableTests.ribcage([
            "test", "--list", "NIOTestUtils", "--path", root.path,
        ])
        let rows = module.outputText.split(separator: "\n").dropFirst()
        #expect(
            rows.map { String($0.split(separator: " ")[0]) } == [
                "NIOCoreTests", "NIOHTTP1Tests", "NIOPosixTests", "NIOTLSTests", "NIOTestUtilsTests",
            ])
        #expect(rows.allSatisfy { $0.contains("NIOTestUtils") }, "\(module.outputText)")
    }
}
