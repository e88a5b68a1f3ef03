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

    @Test(
        "reads as the whole file does: unfinished conditions, strings, comments and #if blocks at its end",
        arguments: [
            // The condition continues past the region: the whole file is parsed instead.
            "import Foundation\n#if canImport(Glibc) ||\n    os(Linux)\nlet x = 1\n#endif\n",
            "#if os(Linux)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#else\nlet x = 1\n#endif\nlet y = 2\n",
            "import A\n/* a comment that says\nimport B\nand goes on */\nlet x = 1\n",
            "import A\nlet s = \"\"\"\nimport B\n\"\"\"\nlet t = 1\n",
            "#if DEBUG\n@testable import A\n#endif\nstruct S { func f() {} }\n",
            "import struct A.B\nimport C\n    .D\nlet x = 1\n",
            "#if compiler(>=6) && canImport(Synchronization)\nimport Synchronization\n#endif\nfinal class Box {}\n",
        ])
    func agreesWithWholeParse(source: String) {
        #expect(ImportScanner.references(in: source) == ImportScanner.referencesParsingAll(of: source))
        #expect(!ImportScanner.references(in: source).isEmpty)
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
