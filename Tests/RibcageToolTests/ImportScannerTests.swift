import RibcageLint
import Testing

@Suite("Import scanner")
struct ImportScannerTests {
    static func modules(_ source: String) -> [String] {
        ImportScanner.references(in: source).filter { $0.form == .import }.map(\.module)
    }

    @Test("finds every form of import, with its line")
    func forms() {
        let source = """
            import Foundation
            @testable import Cart
            @_exported import Core
            import struct Net.Client
            #if canImport(FoundationNetworking)
                import FoundationNetworking
            #endif
            import Logging; import Metrics
            """
        let found = ImportScanner.references(in: source)
        #expect(
            found.map(\.module) == [
                "Foundation", "Cart", "Core", "Net", "FoundationNetworking", "FoundationNetworking",
                "Logging", "Metrics",
            ])
        #expect(found.map(\.line) == [1, 2, 3, 4, 5, 6, 8, 8])
        #expect(found[4].form == .canImport)
    }

    @Test(
        "reads access-level imports",
        arguments: ["public", "package", "internal", "private", "fileprivate"])
    func accessLevel(_ level: String) {
        let found = ImportScanner.references(in: "\(level) import UnixSignals\n")
        #expect(found.map(\.module) == ["UnixSignals"])
        #expect(found.first?.accessLevel == level)
    }

    @Test(
        "reads imports after attributes, with or without arguments",
        arguments: [
            ("@_spi(Testing) import NIOCore", ["@_spi"]),
            (
                "@_documentation(visibility: internal) @_exported import NIOSSL",
                ["@_documentation", "@_exported"]
            ),
            ("@preconcurrency import Dispatch", ["@preconcurrency"]),
            ("@_implementationOnly import CNIOLinux", ["@_implementationOnly"]),
            ("@_weakLinked import Observation", ["@_weakLinked"]),
            ("@_spi(A) @_spi(B) public import Kit", ["@_spi", "@_spi"]),
            (
                "@_exported @_documentation(visibility: internal) import class NIOSSL.NIOSSLCertificate",
                [
                    "@_exported", "@_documentation",
                ]
            ),
            ("@_exported\nimport Split", ["@_exported"]),
        ])
    func attributes(_ line: String, _ attributes: [String]) {
        let found = ImportScanner.references(in: line + "\n")
        #expect(found.count == 1)
        #expect(found.first?.attributes == attributes)
        #expect(
            found.first.map {
                ["NIOCore", "NIOSSL", "Dispatch", "CNIOLinux", "Observation", "Kit", "Split"].contains(
                    $0.module)
            } == true)
    }

    @Test("a backticked name and a kind before the path")
    func namesAndKinds() {
        #expect(
            Self.modules("import `Foo`\nimport func Darwin.exit\nimport var Glibc.errno\n") == [
                "Foo", "Darwin", "Glibc",
            ])
    }

    @Test("ignores imports in comments, every kind of string literal and regex literals")
    func noFalsePositives() {
        let source = #"""
            // import LineComment
            /* import Block /* import Nested */ still a comment: import Inner */
            let a = "import InString"
            let b = """
                import InMultiline
                """
            let c = #"import InRaw "quoted" inside"#
            let d = "\(call("import InInterpolation")) and more"
            let e = "escaped \" import AfterEscape"
            let importance = 1  // an identifier that starts with "import"
            func f() { let x = importance }
            let r = #/import "InRegex"/#
            import Real
            """#
        #expect(Self.modules(source) == ["Real"])
        #expect(ImportScanner.references(in: source).first?.line == 13)
    }

    @Test("`import` as an argument label or a member is not an import")
    func keywordInOtherRoles() {
        let source = """
            func load(import file: String) {}
            load(import: "x")
            let settings = options
                .import
            call(
                import: 1)
            """
        #expect(Self.modules(source).isEmpty)
    }

    @Test("records the #if conditions around each import, including #elseif and #else")
    func conditions() {
        let source = """
            #if canImport(Darwin)
            import Darwin
            #elseif os(Windows)
            import ucrt
            #else
            import Glibc
            #endif
            #if DEBUG
              #if !os(WASI)
            import Inner
              #endif
            #endif
            import Plain
            """
        let imports = ImportScanner.references(in: source).filter { $0.form == .import }
        #expect(imports.map(\.module) == ["Darwin", "ucrt", "Glibc", "Inner", "Plain"])
        #expect(
            imports.map { $0.condition?.description } == [
                "canImport(Darwin)",
                "!canImport(Darwin) && os(Windows)",
                "!canImport(Darwin) && !os(Windows)",
                "DEBUG && !os(WASI)",
                nil,
            ])
    }

    @Test("a condition continues on the next line inside parentheses, as the compiler reads it")
    func multilineCondition() {
        let source = """
            #if ((compiler(<6.1) && !os(WASI)) ||
                (compiler(>=6.1) && _runtime(_multithreaded)))
            import Threads
            #endif
            """
        let found = ImportScanner.references(in: source).filter { $0.form == .import }
        #expect(found.map(\.module) == ["Threads"])
        #expect(
            found.first?.condition?.description
                == "(compiler(<6.1) && !os(WASI)) || (compiler(>=6.1) && _runtime(_multithreaded))")
    }

    @Test("lines count from bytes, past text that is not ASCII")
    func linesPastUnicode() {
        let source = "// 日本語のコメント 🐕\nlet s = \"é\"\n\nimport After\n"
        #expect(ImportScanner.references(in: source).map(\.line) == [4])
    }

    @Test("canImport is a use wherever the #if sits, with the conditions around it")
    func canImportInBodies() {
        let source = """
            func f() {
                #if os(Linux)
                #elseif canImport(Inner.Sub)
                #endif
            }
            struct S {
                #if canImport(`Ticked`)
                var x = 1
                #endif
            }
            """
        let found = ImportScanner.references(in: source)
        #expect(found.map(\.module) == ["Inner", "Ticked"])
        #expect(found.map(\.form) == [.canImport, .canImport])
        #expect(found.map(\.line) == [3, 7])
        #expect(found.first?.condition == nil, "the #if's own condition is not around its canImport")
    }

    @Test("a nested #elseif's canImport carries the branches around it")
    func canImportNested() {
        let source = """
            #if DEBUG
            #if os(Linux)
            #elseif canImport(Network)
            import Network
            #endif
            #endif
            """
        let found = ImportScanner.references(in: source)
        #expect(found.map(\.module) == ["Network", "Network"])
        #expect(found[0].condition?.description == "DEBUG")
        #expect(found[1].condition?.description == "DEBUG && (!os(Linux) && canImport(Network))")
    }

    @Test("tokens after a condition on its line make it unreadable, as the compiler rejects it")
    func trailingTokens() throws {
        let found = ImportScanner.references(in: "#if DEBUG junk\nimport Kept\n#endif\n")
        #expect(found.map(\.module) == ["Kept"])
        let condition = try #require(found.first?.condition)
        #expect(condition.evaluate(in: CompilationConditionTests.linux) == nil)
    }

    @Test("a condition cut at the end of a line outside parentheses is unreadable, as the compiler says")
    func conditionCutAtLineEnd() throws {
        // swiftc 6.3: "incomplete condition in conditional compilation directive".
        let source = """
            #if os(Linux) ||
                os(Android)
            import Cut
            #endif
            """
        let found = ImportScanner.references(in: source).filter { $0.form == .import }
        #expect(found.map(\.module) == ["Cut"])
        let condition = try #require(found.first?.condition)
        #expect(condition == .unreadable("os(Linux) ||"))
        #expect(condition.evaluate(in: CompilationConditionTests.linux) == nil, "so the import is checked")
    }
}

@Suite("Compilation conditions")
struct CompilationConditionTests {
    static let linux = BuildConditions(
        toolchain: Toolchain(
            modules: ["Glibc", "Foundation"], compilerVersion: [6, 3, 1], architecture: "x86_64"),
        flags: ["DEBUG", "ConfigurationSupport"], importable: ["Glibc", "Foundation", "NIOCore"],
        operatingSystem: "Linux")

    static func evaluate(_ text: String) -> Bool? {
        CompilationCondition.parse(text).evaluate(in: linux)
    }

    @Test(
        "evaluates platform checks for a debug build on Linux",
        arguments: [
            ("os(Linux)", true), ("os(macOS) || os(iOS)", false), ("!os(Windows)", true),
            ("canImport(Glibc)", true), ("canImport(Darwin)", false), ("canImport(NIOCore)", true),
            ("canImport(Network)", false), ("canImport(Foundation, _version: 1)", true),
            ("compiler(>=6.2)", true), ("compiler(<6.1)", false), ("swift(>=5.9)", true),
            ("compiler(>=6.3.2)", false),
            ("arch(x86_64)", true), ("arch(arm64) || arch(i386)", false),
            ("targetEnvironment(simulator)", false),
            ("_runtime(_ObjC)", false), ("_runtime(_multithreaded)", true), ("_endian(little)", true),
            ("_pointerBitWidth(_64)", true), ("DEBUG", true), ("ENABLE_MOCKING", false),
            ("ConfigurationSupport", true), ("true", true), ("false || !true", false),
            ("canImport(Glibc) && (os(Linux) || os(Android))", true),
            ("os(Linux) || os(Windows) && DEBUG", true), ("!DEBUG || os(Windows) && os(Linux)", false),
            ("_hasAtomicBitWidth(_64)", true), ("_ptrauth(_arm64e)", false),
            ("canImport(Glibc.Unistd)", true),
            ("$Macros || os(Linux)", true),
        ])
    func evaluates(_ condition: String, _ expected: Bool) {
        #expect(Self.evaluate(condition) == expected)
    }

    @Test("what only the compiler knows is unknown, and unknown is kept apart from false")
    func unknown() {
        #expect(Self.evaluate("hasFeature(Embedded)") == nil)
        #expect(Self.evaluate("hasFeature(Embedded) && os(Linux)") == nil)
        #expect(Self.evaluate("hasFeature(Embedded) && os(Windows)") == false)
        #expect(Self.evaluate("hasFeature(Embedded) || os(Linux)") == true)
        #expect(Self.evaluate("os(Linux) &&") == nil, "a condition it cannot read")
        #expect(Self.evaluate("hasAttribute(retroactive) || os(Windows)") == nil)
        #expect(Self.evaluate("$Macros") == nil, "a language feature only the compiler knows")
        #expect(Self.evaluate("_hasAtomicBitWidth(_128)") == nil, "it depends on the CPU")
        #expect(Self.evaluate("notACheck(Linux)") == nil, "a check SwiftIfConfig does not know")
        #expect(Self.evaluate("os(Linux) + 1") == nil, "an operator no #if accepts")
    }

    @Test("an unknown compiler version leaves compiler() and swift() unknown, not false")
    func unknownCompiler() {
        let unknown = BuildConditions(
            toolchain: Toolchain(modules: [], compilerVersion: []), flags: [], importable: [],
            operatingSystem: "Linux")
        #expect(CompilationCondition.parse("compiler(>=6.0)").evaluate(in: unknown) == nil)
        #expect(CompilationCondition.parse("swift(<5.9)").evaluate(in: unknown) == nil)
        #expect(CompilationCondition.parse("os(Linux)").evaluate(in: unknown) == true)
    }

    @Test("&& binds tighter than ||, as Swift reads it")
    func precedence() {
        #expect(
            CompilationCondition.parse("A || B && !C || D").description == "(A || (B && !C)) || D")
    }
}

@Suite("Module maps")
struct ModuleMapTests {
    @Test("top-level modules, past comments, strings, attributes and submodules")
    func topLevel() {
        let map = """
            // module Commented {
            /* module InBlock { } */
            module SwiftGlibc [system] {
                header "SwiftGlibc.h"
                explicit module Sub { header "module Inner.h" }
                export *
            }
            framework module Kit { umbrella header "Kit.h" module * { export * } }
            extern module Elsewhere "other/module.modulemap"
            module _Builtin_stdint [system] [extern_c] { header "stdint.h" }
            """
        #expect(ModuleMap.topLevelModules(in: map) == ["SwiftGlibc", "Kit", "Elsewhere", "_Builtin_stdint"])
    }
}
