import RibcageLint
import Testing

/// What `ribcage test --remote-shards` deals out: the top-level types that hold tests, with how
/// many, read by a parser rather than by a search for "@Test".
@Suite("The top-level suite types of a test source")
struct TestSuiteOutlineTests {
    @Test("a type's tests count under it: its own, a nested type's, and an extension's, in any file")
    func typesNestedAndExtended() {
        let source = """
            import Testing

            @Suite struct Shelves {
                @Test func holds() {}
                @Test(arguments: [1, 2]) func rows(count: Int) {}
                @Suite struct Labels {
                    @Test("peels") func peel() {}
                }
                func helper() {}
            }

            extension Shelves {
                @Testing.Test func stands() {}
            }

            extension Shelves.Labels {
                @Test func prints() {}
            }

            final class Drawers {
                @Test func opens() async throws {}
            }
            """
        #expect(TestSuiteOutline(source: source).testsByDeclaredType == ["Shelves": 5, "Drawers": 1])
    }

    @Test("free functions, types without tests, and @Test in comments or strings belong to no type")
    func whatIsNoSuite() {
        let source = """
            import Testing

            @Test func loose() {}

            struct Helper {
                // @Test func commentedOut() {}
                let text = "@Test func inAString() {}"
                @available(*, deprecated) func old() {}
            }

            enum Fixtures {}
            """
        #expect(TestSuiteOutline(source: source).testsByDeclaredType.isEmpty)
    }

    @Test("extensions of types declared elsewhere are left out: their tests are named after that module")
    func foreignExtensions() {
        let tests = """
            import Lib
            import Testing

            struct Plain { @Test func a() {} }
            typealias Alias = Plain
            extension Alias { @Test func b() {} }
            extension String { @Test func c() {} }
            extension Lib.Widget { @Test func d() {} }
            """
        let outline = TestSuiteOutline(source: tests)
        #expect(outline.testsByType == ["Plain": 1, "Alias": 1, "String": 1, "Lib": 1])
        #expect(outline.testsByDeclaredType == ["Plain": 1])
    }

    @Test(
        "tests in extensions of types the target neither declares nor aliases are foreign, whichever file declares"
    )
    func foreignAcrossTheTarget() {
        let extending = """
            import Lib
            import Testing
            extension Widget { @Test func a() {} @Test func b() {} }
            extension Shelves { @Test func c() {} }
            extension Shelf { @Test func d() {} }
            """
        let declaring = "struct Shelves {}\ntypealias Shelf = Shelves\n"
        #expect(TestSuiteOutline.testsInForeignExtensions(ofTarget: [extending, declaring]) == ["Widget": 2])
        #expect(
            TestSuiteOutline.testsInForeignExtensions(ofTarget: [extending])
                == ["Widget": 2, "Shelves": 1, "Shelf": 1])
        #expect(
            TestSuiteOutline.testsInForeignExtensions(ofTarget: [declaring, "@Test func free() {}"]).isEmpty)
    }

    @Test("this module's name before a type, alias chains, and the sugar for Array, Dictionary and Optional")
    func qualifiedAndSugared() {
        let sources = [
            """
            struct Shelves {}
            typealias Rack = Shelf
            typealias Shelf = Shelves
            extension ShopTests.Shelves { @Test func a() {} }
            extension Rack { @Test func b() {} }
            extension Swift.String { @Test func c() {} }
            extension [Int] { @Test func d() {} }
            extension [String: Int] { @Test func e() {} }
            extension Int? { @Test func f() {} }
            """
        ]
        #expect(
            TestSuiteOutline.testsInForeignExtensions(ofTarget: sources, module: "ShopTests")
                == ["Swift": 1, "Array": 1, "Dictionary": 1, "Optional": 1])
        #expect(
            TestSuiteOutline(source: sources[0], module: "ShopTests").testsByDeclaredType == ["Shelves": 1])
    }

    @Test("a type declared in one file and extended in another adds up across the target")
    func acrossFiles() {
        var outline = TestSuiteOutline(source: "extension Shelves { @Test func b() {} }\n")
        #expect(outline.testsByDeclaredType.isEmpty)
        outline.add(TestSuiteOutline(source: "struct Shelves { @Test func a() {} }\n"))
        #expect(outline.testsByDeclaredType == ["Shelves": 2])
    }

    @Test("types inside #if at file scope count, under either branch")
    func conditionalTypes() {
        let source = """
            #if canImport(Glibc)
            struct LinuxOnly {
                @Test func a() {}
                @Test func b() {}
            }
            #else
            actor Elsewhere {
                @Test func c() {}
            }
            #endif
            enum `Quoted` {
                @Test static func d() {}
            }
            """
        #expect(
            TestSuiteOutline(source: source).testsByDeclaredType == [
                "LinuxOnly": 2, "Elsewhere": 1, "Quoted": 1,
            ])
    }
}
