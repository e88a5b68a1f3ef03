import ArgumentParser
import Foundation
import Testing

@testable import RibcageTool

/// Where `ribcage test` shares its test cache, from its arguments alone.
@Suite(
    "ribcage test's shared store",
    .enabled(
        if: ProcessInfo.processInfo.environment["RIBCAGE_CACHE_URL"] == nil,
        "RIBCAGE_CACHE_URL, when set, is the shared store whatever the arguments"))
struct SharedStoreTests {
    /// The store `arguments` give, as `address instance`, or nil.
    static func store(_ arguments: [String]) throws -> String? {
        let command = try #require(try RibcageCommand.parseAsRoot(["test"] + arguments) as? TestCommand)
        return command.cacheOptions.sharedStore(besides: command.remoteOptions).map {
            "\($0.address) \($0.instanceName)".trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("--cache-url first; else, with --cache, the executor; --cache-url '' shares nowhere")
    func choice() throws {
        let executor = ["--remote-executor", "grpc://grid:8980"]
        #expect(try Self.store(["--cache"]) == nil)
        #expect(try Self.store(["--cache-url", "https://cache.example/r"]) == "https://cache.example/r")
        #expect(try Self.store(["--cache"] + executor) == "grpc://grid:8980")
        #expect(try Self.store(executor) == nil, "without --cache, remote runs keep to their stand-ins")
        #expect(
            try Self.store(["--cache", "--cache-url", "unix:/run/cache.sock"] + executor)
                == "unix:/run/cache.sock")
        #expect(try Self.store(["--cache", "--cache-url", ""] + executor) == nil)
        #expect(
            try Self.store(["--cache", "--remote-instance", "main"] + executor) == "grpc://grid:8980 main",
            "the instance names the executor's store too, as Bazel's --remote_instance_name")
    }
}
