import Foundation
import RemoteExecution
import SwiftProtobuf
import Testing

/// The client against a real buildbox-casd on loopback, executing with its bubblewrap runner.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct RemoteExecutionClientTests {
    @Test func capabilitiesOfferSHA256AndExecution() async throws {
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint) { client in
                let capabilities = try await client.capabilities()
                #expect(capabilities.executionCapabilities.execEnabled)
                #expect(capabilities.cacheCapabilities.actionCacheUpdateCapabilities.updateEnabled)
                #expect(capabilities.highApiVersion.major == 2)
            }
        }
    }

    @Test func blobsGoUpInBatchesAndComeBackChecked() async throws {
        try await Casd.withServer { casd in
            // A small batch limit, so that 40 blobs of 1 KiB take several requests each way.
            try await RemoteExecutionClient.withClient(casd.endpoint, batchBytes: 8_192, findMissingBatch: 7)
            {
                client in
                var blobs: [BlobDigest: Data] = [:]
                for index in 0..<40 {
                    let data = Data(String(repeating: "blob \(index) ", count: 100).utf8)
                    blobs[BlobDigest(of: data)] = data
                }
                // The calls' results are bound before #expect: its expansion cannot take an
                // expression that throws a typed error.
                let missingBefore = try await client.findMissing(blobs.keys)
                #expect(missingBefore == Set(blobs.keys))
                let uploaded = try await client.upload(blobs)
                #expect(uploaded == 40)
                let missingAfter = try await client.findMissing(blobs.keys)
                #expect(missingAfter.isEmpty)
                let uploadedAgain = try await client.upload(blobs)
                #expect(uploadedAgain == 0)
                let readBack = try await client.read(blobs.keys)
                #expect(readBack == blobs)

                let absent = BlobDigest(of: Data("never uploaded".utf8))
                await #expect(throws: RemoteExecutionError.missingBlobs([absent])) {
                    try await client.read([absent])
                }
                let wrong = BlobDigest(hash: String(repeating: "0", count: 64), size: 4)
                await #expect(
                    throws: RemoteExecutionError.badDigest(
                        expected: wrong, actual: BlobDigest(of: Data("oops".utf8)))
                ) {
                    try await client.upload([wrong: Data("oops".utf8)])
                }
            }
        }
    }

    @Test(
        "files upload from disk, in batches and streamed, unhashed; one that changed since it was hashed is refused"
    )
    func filesUploadFromDisk() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcage-file-blobs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { removeRecordingFailure(folder) }
        var blobs: [BlobDigest: BlobSource] = [:]
        var expected: [BlobDigest: Data] = [:]
        for size in [10, 64 * 1_024 + 1, 3 * 1_024 * 1_024 + 5] {
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
            let file = folder.appendingPathComponent("blob-\(size)")
            try data.write(to: file)
            let digest = try FileDigests().digest(ofFile: file.path)
            #expect(digest == BlobDigest(of: data))
            blobs[digest] = .file(path: file.path)
            expected[digest] = data
        }
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint, batchBytes: 64 * 1_024) { client in
                #expect(try await client.upload(blobs) == 3)
                #expect(try await client.read(blobs.keys) == expected)

                // A file rewritten after it was hashed: shorter, so caught here, not stored.
                let file = folder.appendingPathComponent("changed")
                try Data(repeating: 1, count: 200_000).write(to: file)
                let digest = try FileDigests().digest(ofFile: file.path)
                try Data(repeating: 1, count: 100_000).write(to: file)
                await #expect {
                    try await client.upload([digest: .file(path: file.path)])
                } throws: { error in
                    guard case .unreadableUpload(let reason) = error as? RemoteExecutionError else {
                        return false
                    }
                    return reason.contains("no longer the 200000 bytes")
                }
                #expect(try await client.findMissing([digest]) == [digest])
            }
        }
    }

    @Test func blobsOverTheBatchSizeGoThroughByteStreamInChunks() async throws {
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint, batchBytes: 64 * 1_024) { client in
                // Bigger than a batch; the 5 MiB one is also five ByteStream messages, the last
                // one short. Bytes that differ along the blob, so a chunk out of place shows.
                var blobs: [BlobDigest: Data] = [:]
                for size in [64 * 1_024 + 1, 5 * 1_024 * 1_024 + 17] {
                    let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
                    blobs[BlobDigest(of: data)] = data
                }
                let small = Data("small".utf8)
                blobs[BlobDigest(of: small)] = small
                let uploaded = try await client.upload(blobs)
                #expect(uploaded == 3)
                let missingAfter = try await client.findMissing(blobs.keys)
                #expect(missingAfter.isEmpty)
                let readBack = try await client.read(blobs.keys)
                #expect(readBack == blobs)

                let absent = BlobDigest(of: Data(repeating: 7, count: 100_000))
                await #expect(throws: RemoteExecutionError.missingBlobs([absent])) {
                    try await client.read([absent])
                }
            }
        }
    }

    @Test func actionCacheStoresAndAnswers() async throws {
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint) { client in
                let action = BlobDigest(of: Data("an action never run".utf8))
                let before = try await client.cachedResult(of: action)
                #expect(before == nil)
                let output = Data("stored output".utf8)
                try await client.upload([BlobDigest(of: output): output])
                var result = REAPI.ActionResult()
                result.exitCode = 3
                var file = REAPI.OutputFile()
                file.path = "out"
                file.digest = BlobDigest(of: output).message
                result.outputFiles = [file]
                try await client.storeResult(result, of: action)
                let after = try await client.cachedResult(of: action)
                let cached = try #require(after)
                #expect(cached.exitCode == 3)
                #expect(cached.outputFiles.map(\.path) == ["out"])
            }
        }
    }

    @Test func executesAnActionThenAnswersFromTheActionCache() async throws {
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint) { client in
                let action = try await uploadAction(
                    ["/bin/sh", "-c", "cat input/greeting > out; echo ran"], outputs: ["out"],
                    inputs: ["input/greeting": .init(Data("hi\n".utf8))], client: client)

                let first = try await client.execute(action)
                let stderr = try await text(first.result.stderrRaw, first.result.stderrDigest, client: client)
                #expect(first.result.exitCode == 0, "stderr: \(stderr)\ncasd log:\n\(casd.log)")
                #expect(first.cachedResult == false)
                let out = try #require(first.result.outputFiles.first { $0.path == "out" }, "\(first.result)")
                let bytes = try await client.read([BlobDigest(out.digest)])
                #expect(bytes[BlobDigest(out.digest)] == Data("hi\n".utf8))
                let stdout = try await text(first.result.stdoutRaw, first.result.stdoutDigest, client: client)
                #expect(stdout == "ran\n")

                let second = try await client.execute(action)
                #expect(second.cachedResult)
                #expect(second.result.outputFiles == first.result.outputFiles)
                let cached = try await client.cachedResult(of: action)
                #expect(cached?.outputFiles == first.result.outputFiles)
            }
        }
    }

    @Test func aFailingCommandIsAResultNotAnError() async throws {
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint) { client in
                let action = try await uploadAction(
                    ["/bin/sh", "-c", "echo broken >&2; exit 7"], outputs: [], inputs: [:], client: client)
                let execution = try await client.execute(action)
                #expect(execution.result.exitCode == 7)
                let stderr = try await text(
                    execution.result.stderrRaw, execution.result.stderrDigest, client: client)
                #expect(stderr == "broken\n")
            }
        }
    }

    @Test func aServerThatIsNotThereIsUnreachable() async throws {
        // A port casd listened on a moment ago: nothing answers there now.
        let endpoint = try await Casd.withServer { $0.endpoint }
        let error = await #expect(throws: RemoteExecutionError.self) {
            try await RemoteExecutionClient.withClient(endpoint) { client in
                try await client.capabilities()
            }
        }
        guard case .unreachable = error else {
            Issue.record("expected an unreachable server, got \(String(describing: error))")
            return
        }
    }

    @Test func casdKilledMidExecuteIsALostConnection() async throws {
        try await Casd.withServer { casd in
            try await RemoteExecutionClient.withClient(casd.endpoint) { client in
                let action = try await uploadAction(
                    ["/bin/sh", "-c", "sleep 30"], outputs: [], inputs: [:], client: client)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        let error = await #expect(throws: RemoteExecutionError.self) {
                            try await client.execute(action)
                        }
                        guard case .connectionLost(let call, _) = error else {
                            Issue.record("expected a lost connection, got \(String(describing: error))")
                            return
                        }
                        #expect(call == "Execute")
                    }
                    // Kill casd once its runner has the action.
                    for _ in 0..<100 where casd.log.contains("buildbox-run") == false {
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await Task.sleep(for: .milliseconds(500))
                    casd.kill()
                    try await group.waitForAll()
                }
                // And the next call fails the same typed way, not with a crash or a hang.
                let next = await #expect(throws: RemoteExecutionError.self) {
                    try await client.findMissing([BlobDigest(of: Data())])
                }
                switch next {
                case .connectionLost, .unreachable: break
                default: Issue.record("expected a lost connection, got \(String(describing: next))")
                }
            }
        }
    }
}

/// Uploads the Command, the input root and the Action of `arguments`, and returns the Action's
/// digest.
func uploadAction(
    _ arguments: [String], outputs: [String], inputs: [String: InputTree.File], client: RemoteExecutionClient
) async throws -> BlobDigest {
    var command = REAPI.Command()
    command.arguments = arguments
    command.outputPaths = outputs
    var variable = Build_Bazel_Remote_Execution_V2_Command.EnvironmentVariable()
    variable.name = "PATH"
    variable.value = "/usr/bin:/bin"
    command.environmentVariables = [variable]
    let (commandDigest, commandBytes) = try BlobDigest.of(command)
    let (root, tree) = try InputTree(files: inputs).merkle()
    var action = REAPI.Action()
    action.commandDigest = commandDigest.message
    action.inputRootDigest = root.message
    action.timeout = Google_Protobuf_Duration(seconds: 60)
    let (actionDigest, actionBytes) = try BlobDigest.of(action)
    var blobs = tree
    blobs[commandDigest] = .bytes(commandBytes)
    blobs[actionDigest] = .bytes(actionBytes)
    try await client.upload(blobs)
    return actionDigest
}

/// A standard output or error of a result: inline, or from the CAS when it names a digest.
func text(_ raw: Data, _ digest: REAPI.Digest, client: RemoteExecutionClient) async throws -> String {
    guard digest.hash.isEmpty == false else { return String(decoding: raw, as: UTF8.self) }
    let blobs = try await client.read([BlobDigest(digest)])
    return String(decoding: try #require(blobs[BlobDigest(digest)]), as: UTF8.self)
}
