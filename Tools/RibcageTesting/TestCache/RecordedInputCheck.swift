import Dispatch
import Foundation
import Synchronization

extension TestCacheInputs {
    /// For each entry, the recorded inputs whose digest differs now (nil for an entry that
    /// records none, which is stale), every distinct input digested once, on all cores.
    ///
    /// A file the keys just hashed (a test target's own source, a fixture in a target's folder)
    /// takes the digest the keys read a moment ago rather than being read again: in a look-up of
    /// every suite, most recorded files are such files; so does a folder the keys' walk listed. Call it after ``keys(for:withParts:)``
    /// on this value; it blocks, so not on the cooperative pool.
    package func changedInputs(of entries: [String: TestCacheEntry]) -> [String: [RecordedInput]?] {
        let known = hashedFileDigests()
        let listed = walkedListings()
        var distinct: Set<RecordedInput> = []
        for entry in entries.values {
            for input in entry.recordedInputs ?? [] {
                distinct.insert(RecordedInput(kind: input.kind, path: input.path, digest: ""))
            }
        }
        let inputs = Array(distinct)
        let digests = Mutex<[RecordedInput: String]>([:])
        let chunks = max(1, min(inputs.count, ProcessInfo.processInfo.activeProcessorCount * 4))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var found: [RecordedInput: String] = [:]
            for index in stride(from: chunk, to: inputs.count, by: chunks) {
                let input = inputs[index]
                if input.kind == .file || input.kind == .executable, let digest = known[input.path] {
                    found[input] = digest
                } else if input.kind == .listing, let names = listed[input.path] {
                    found[input] = RecordedInput.listingDigest(of: names)
                } else {
                    found[input] = input.currentDigest(in: self)
                }
            }
            digests.withLock { $0.merge(found) { first, _ in first } }
        }
        let now = digests.withLock { $0 }
        return entries.mapValues { entry in
            entry.recordedInputs.map { recorded in
                recorded.filter {
                    now[RecordedInput(kind: $0.kind, path: $0.path, digest: "")] != $0.digest
                }
            }
        }
    }
}
