import RibcageTesting
import Testing

/// How one test target's tests are dealt into actions: every test in exactly one, the heaviest
/// types spread first, the patterns read as Swift Testing reads `--filter` and `--skip` (a test
/// runs when its identifier contains a match of the filter and none of the skip).
@Suite("A test target split into shards")
struct RemoteTestShardTests {
    /// Identifiers as Swift Testing writes them (`swift test list`): module, a dot, the type,
    /// then nested types and the function after slashes; a free function has no type.
    static let identifiers = [
        "Shop.Shelves/holds()", "Shop.Shelves/Labels/peel()", "Shop.ShelvesExtra/rows(count:)",
        "Shop.Drawers/opens()", "Shop.Boxes/packs()", "Shop.loose()", "Shop.Unseen/found()",
        "ShopTwo.Shelves/holds()",
    ]

    static func runs(_ identifier: String, in shard: RemoteTestShard) throws -> Bool {
        let filter = try Regex(shard.filter)
        let skipped = try shard.skip.map { identifier.contains(try Regex($0)) } ?? false
        return identifier.contains(filter) && !skipped
    }

    @Test("each of the module's tests runs in exactly one shard; other modules' in none", arguments: 1...5)
    func partition(count: Int) throws {
        let shards = RemoteTestShard.split(
            "Shop", testsByType: ["Shelves": 3, "ShelvesExtra": 1, "Drawers": 2, "Boxes": 1], into: count)
        #expect(shards.count == min(count, 4))
        #expect(shards.map(\.index) == Array(1...shards.count))
        for identifier in Self.identifiers {
            let taking = try shards.filter { try Self.runs(identifier, in: $0) }.count
            #expect(taking == (identifier.hasPrefix("Shop.") ? 1 : 0), "\(identifier): \(taking) shards")
        }
    }

    @Test("types are dealt heaviest first to the lightest shard; the last takes what is not named")
    func balance() throws {
        let shards = RemoteTestShard.split(
            "Shop", testsByType: ["Shelves": 5, "Drawers": 3, "Boxes": 2, "Crates": 1], into: 2)
        #expect(shards.count == 2)
        #expect(shards[0].filter == #"^Shop\.(?:Crates|Shelves)(?:/|$)"#)
        #expect(shards[0].skip == nil)
        #expect(shards[1].filter == #"^Shop\."#)
        #expect(shards[1].skip == shards[0].filter)
        #expect(try Self.runs("Shop.Unseen/found()", in: shards[1]))
        #expect(try Self.runs("Shop.loose()", in: shards[1]))
    }

    @Test("one shard, or no types found, is the whole target as before")
    func whole() {
        let whole = RemoteTestShard.whole("Shop")
        #expect(whole.filter == #"^Shop\."# && whole.skip == nil && whole.label.isEmpty)
        #expect(RemoteTestShard.split("Shop", testsByType: ["Shelves": 3], into: 1) == [whole])
        #expect(RemoteTestShard.split("Shop", testsByType: [:], into: 4) == [whole])
    }

    @Test("the filter names the module SwiftPM makes of the target, as Swift Testing's identifiers do")
    func moduleNames() throws {
        #expect(TestSuite(testTarget: "My-Tests", modules: []).moduleName == "My_Tests")
        #expect(TestSuite(testTarget: "2DTests", modules: []).moduleName == "_2DTests")
        #expect(TestSuite(testTarget: "ÜberTests", modules: []).moduleName == "ÜberTests")
        #expect(RemoteTestShard.whole("My-Tests").filter == #"^My_Tests\."#)
        let shards = RemoteTestShard.split("My.Tests", testsByType: ["A": 1, "B": 1], into: 2)
        #expect(try Self.runs("My_Tests.A/a()", in: shards[0]))
        #expect(try Self.runs("My_Tests.B/b()", in: shards[1]))
    }

    @Test("the quarantine's skip and the shard's are both kept")
    func quarantine() throws {
        let last = try #require(
            RemoteTestShard.split("Shop", testsByType: ["Shelves": 1, "Drawers": 1], into: 2).last)
        let skip = try #require(last.skip(with: #"Shop\.Boxes/packs\(\)"#))
        #expect("Shop.Boxes/packs()".contains(try Regex(skip)))
        // Tied at one test each, the types go in name order: Drawers to the first shard.
        #expect("Shop.Drawers/opens()".contains(try Regex(skip)))
        #expect(!"Shop.Shelves/holds()".contains(try Regex(skip)))
        #expect(!"Shop.loose()".contains(try Regex(skip)))
        #expect(RemoteTestShard.whole("Shop").skip(with: "q") == "q")
        #expect(RemoteTestShard.whole("Shop").skip(with: nil) == nil)
    }
}
