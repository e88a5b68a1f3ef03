import BlockingWork
import Foundation
import RibcageLint
import Testing

/// Lint parses only the start of a file that holds its imports; these pin down where that start
/// ends, and that it reads exactly as the whole file does.
@Suite("Import region")
struct ImportRegionTests {
    /// The region of `source` as text.
    static func region(_ source: String) -> String {
        String(decoding: source.utf8.prefix(ImportRegion(of: source).length), as: UTF8.self)
    }

    @Test("ends after the line of the last import; the code below is left out")
    func endsAfterLastImport() {
        let source = """
            import Foundation
            @testable import Cart

            struct Basket {
                func total() -> Int { 0 }
            }
            """
        #expect(Self.region(source) == "import Foundation\n@testable import Cart\n")
    }

    @Test("a canImport in an #if far below, even inside a function, takes the region to its line")
    func reachesLateCanImport() {
        let source = """
            import Foundation
            func now() -> Int {
            #if canImport(Glibc)
                return 1
            #else
                return 2
            #endif
            }
            """
        #expect(Self.region(source).hasSuffix("#if canImport(Glibc)\n"))
    }

    @Test(
        "words that only contain import do not count; an import in a comment or a string does",
        arguments: [
            ("import A\nlet important = 1\nlet imported = reimport(x)\n_ = importer\n", "import A\n"),
            (
                "import A\nlet x = 1 // import this later\nlet y = 2\n",
                "import A\nlet x = 1 // import this later\n"
            ),
            ("import A\nlet s = \"\"\"\nimport B\n\"\"\"\n", "import A\nlet s = \"\"\"\nimport B\n"),
            ("import A\nlet café_import = 1\n", "import A\n"),
            ("let x = 1\n", ""),
        ])
    func wordBoundaries(source: String, expected: String) {
        #expect(Self.region(source) == expected)
    }

    @Test("a last import on the file's last line, with no newline, is the whole file")
    func lastLineWithoutNewline() {
        let source = "let x = 1\nimport A"
        #expect(ImportRegion(of: source).length == source.utf8.count)
    }

    /// A source, the modules of its references in order, and whether the whole of it must be
    /// parsed.
    struct Case: Sendable, CustomTestStringConvertible {
        var source: String
        var modules: [String]
        var parsesWholeSource: Bool
        var testDescription: String { modules.isEmpty ? "no references" : modules.joined(separator: ", ") }

        init(_ source: String, _ modules: [String], whole: Bool) {
            (self.source, self.modules, self.parsesWholeSource) = (source, modules, whole)
        }
    }

    @Test(
        "reads as the whole file does, from the region alone when it can, the whole file when it must",
        arguments: [
            // The condition runs on past the region (and is one swiftc rejects, so it names none).
            Case(
                "import Foundation\n#if canImport(Glibc) ||\n    os(Linux)\nlet x = 1\n#endif\n",
                ["Foundation"], whole: true),
            // The module is on the line after `import`.
            Case("import\n    Foundation\nlet x = 1\n", ["Foundation"], whole: true),
            // Cut inside an extended regex literal, the lexer reads its lines again as code.
            Case("import A\nlet r = #/\n  import B\n/#\nlet x = 1\n", ["A"], whole: true),
            // Cut before its end marker, a merge conflict is code, not trivia.
            Case("<<<<<<< ours\nimport A\n=======\nimport B\n>>>>>>> theirs\nlet x = 1\n", [], whole: true),
            // Scopes, #if blocks, comments and strings the cut leaves open.
            Case(
                "#if os(Linux)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#else\nlet x = 1\n#endif\n",
                ["Glibc", "Darwin", "Darwin"], whole: false),
            Case(
                "import A\nstruct S {\n    func f() {\n    #if canImport(Glibc)\n        g()\n    #endif\n    }\n}\n",
                ["A", "Glibc"], whole: false),
            Case(
                "import A\n/* a comment that says\nimport B\nand goes on */\nlet x = 1\n", ["A"], whole: false
            ),
            Case("import A\nlet s = \"\"\"\nimport B\n\"\"\"\nlet t = 1\n", ["A"], whole: false),
            Case("import A\nlet s = #\"\"\"\nimport B\n\"\"\"#\nlet t = 1\n", ["A"], whole: false),
            Case("#if DEBUG\n@testable import A\n#endif\nstruct S { func f() {} }\n", ["A"], whole: false),
            Case("import struct A.B\nimport C\n    .D\nlet x = 1\n", ["A", "C"], whole: false),
            Case("\u{FEFF}import Foundation\nlet x = 1\n", ["Foundation"], whole: false),
            Case(
                "#if compiler(>=6) && canImport(Synchronization)\nimport Synchronization\n#endif\nfinal class Box {}\n",
                ["Synchronization", "Synchronization"], whole: false),
        ])
    func agreesWithWholeParse(_ example: Case) {
        let scan = ImportScanner.scan(example.source)
        #expect(scan.references == ImportScanner.referencesParsingAll(of: example.source))
        #expect(scan.references.map(\.module) == example.modules)
        #expect(scan.parsedWholeSource == example.parsesWholeSource)
    }

    @Test("short and edge inputs: no import, canImport at the start, import at the start and the end")
    func edges() {
        #expect(ImportRegion(of: "").length == 0)
        #expect(ImportRegion(of: "imp").length == 0)
        #expect(ImportRegion(of: "import").length == 6)
        #expect(ImportRegion(of: "canImport\nx").length == 10)
        #expect(ImportRegion(of: "Import\nx").length == 0)
        #expect(ImportRegion(of: "import A\r\nlet x = 1\r\n").length == 10)
        #expect(ImportRegion(of: "let éimport = 1\nlet y = 2\n").length == 17)
    }

    @Test("on each file of this workspace with an #if, the region finds what parsing the whole file finds")
    func agreesOnThisWorkspace() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../..").standardizedFileURL
        var sources: [(path: String, text: String)] = []
        for folder in ["Modules", "Apps", "Tools", "Tests"] {
            let root = repository.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                Issue.record("cannot list \(root.path)")
                continue
            }
            for case let file as URL in walk where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.contains("#if") { sources.append((file.path, text)) }
            }
        }
        #expect(sources.count > 50, "the workspace's Swift files with an #if: \(sources.count)")
        // Parsing whole files takes seconds in a debug build: not on the cooperative pool.
        let candidates = sources
        let disagreeing = await DedicatedThread.run(named: "test-import-region") {
            candidates.filter {
                ImportScanner.references(in: $0.text) != ImportScanner.referencesParsingAll(of: $0.text)
            }.map(\.path)
        }
        #expect(disagreeing.isEmpty)
    }
}
