import RibcagePackage

/// One action's part of a test target's Swift Testing tests (`ribcage test --remote-shards`),
/// as Bazel's test sharding splits one test target over several actions so that a large target
/// spreads over workers.
///
/// A shard is a set of the target's top-level suite types, named in Swift Testing's `--filter`.
/// The last shard takes the whole target and `--skip`s the types the others take: each test
/// runs in exactly one shard, and one nobody named (a free function, a type the outline did not
/// see) runs in the last instead of nowhere.
package struct RemoteTestShard: Sendable, Hashable {
    /// 1-based.
    package var index: Int
    package var count: Int
    /// Swift Testing's `--filter`.
    package var filter: String
    /// Swift Testing's `--skip`: the other shards' types, in the last shard only.
    package var skip: String?

    /// The whole of `testTarget`, in one action.
    package static func whole(_ testTarget: String) -> RemoteTestShard {
        RemoteTestShard(
            index: 1, count: 1, filter: "^\(TestCaseFilter.moduleName(ofTarget: testTarget))\\.", skip: nil)
    }

    /// `testTarget` in at most `count` shards: its top-level suite types dealt heaviest first
    /// (by their number of tests) to the lightest shard, as `--shard` deals test targets. Fewer
    /// types than `count` give one shard per type; none, or a `count` of 1, the whole target.
    package static func split(_ testTarget: String, testsByType: [String: Int], into count: Int)
        -> [RemoteTestShard]
    {
        let shardCount = min(count, testsByType.count)
        guard shardCount > 1 else { return [whole(testTarget)] }
        var loads = Array(repeating: 0, count: shardCount)
        var types = Array(repeating: [String](), count: shardCount)
        for (type, tests) in testsByType.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
            let lightest = loads.indices.min { (loads[$0], $0) < (loads[$1], $1) } ?? 0
            loads[lightest] += tests
            types[lightest].append(type)
        }
        let module = TestCaseFilter.moduleName(ofTarget: testTarget)
        func matching(_ names: [String]) -> String {
            "^\(module)\\.(?:\(names.sorted().map(escaped).joined(separator: "|")))(?:/|$)"
        }
        var shards = types.dropLast().enumerated().map { offset, names in
            RemoteTestShard(index: offset + 1, count: shardCount, filter: matching(names), skip: nil)
        }
        shards.append(
            RemoteTestShard(
                index: shardCount, count: shardCount, filter: "^\(module)\\.",
                skip: matching(types.dropLast().flatMap { $0 })))
        return shards
    }

    /// How the shard is named in file names and messages: "" for a whole target.
    package var label: String { count == 1 ? "" : "shard \(index) of \(count)" }

    /// The skip pattern of an action of this shard, with the quarantine's skipped tests.
    package func skip(with quarantined: String?) -> String? {
        switch (quarantined, skip) {
        case (nil, nil): nil
        case (let one?, nil), (nil, let one?): one
        case (let quarantined?, let shard?): "(?:\(quarantined))|(?:\(shard))"
        }
    }

    /// A type's name in a regular expression: type names are identifiers, which hold no
    /// operator but in backticks, which Swift Testing leaves out.
    private static func escaped(_ name: String) -> String {
        var escaped = ""
        for character in name where character != "`" {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
