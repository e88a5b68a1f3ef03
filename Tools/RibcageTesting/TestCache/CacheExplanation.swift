import Foundation

/// What `ribcage test --explain-cache` prints for one test target: its key's parts, whether the
/// cache holds the key, and which parts changed since the last entry this machine stored or found.
package struct CacheExplanation: Sendable {
    /// The key as the inputs are now.
    package var key: TestCacheKey
    /// The entry under that key, if any.
    package var hit: TestCacheEntry?
    /// The last entry stored or found for the test target on this machine.
    package var latest: TestCacheEntry?
    /// The recorded inputs of `hit` (else of `latest`) whose digest differs now; nil when that
    /// entry records none.
    package var changedInputs: [RecordedInput]?

    /// A description of `key` against `hit` and `latest`.
    package init(
        key: TestCacheKey, hit: TestCacheEntry?, latest: TestCacheEntry?,
        changedInputs: [RecordedInput]? = nil
    ) {
        self.key = key
        self.hit = hit
        self.latest = latest
        self.changedInputs = changedInputs
    }

    /// The recorded inputs of `entry`, and which of them changed.
    private func recordedInputsText(of entry: TestCacheEntry) -> String {
        guard let inputs = entry.recordedInputs else {
            return "  records no inputs read (an older ribcage wrote it): never a hit\n"
        }
        let changed = Set(changedInputs ?? [])
        var text = "  inputs its run read (\(inputs.count), traced):\n"
        for input in inputs.prefix(40) {
            text += "    \(changed.contains(input) ? "~" : " ") \(input.kind.rawValue) \(input.path)\n"
        }
        if inputs.count > 40 { text += "    … and \(inputs.count - 40) more\n" }
        return text
    }

    /// The text: key, parts by kind, verdict, and the changes.
    package var text: String {
        var text = "\(key.testTarget)\n  key \(key.hash)\n"
        let files = key.parts.filter { $0.kind == .file }
        let folders = Set(
            files.map { $0.name.split(separator: "/").dropLast().prefix(2).joined(separator: "/") })
        text += "  parts:\n"
        text +=
            "    \(files.count) files in \(folders.count) folders (sources and resources of the test target and its modules)\n"
        for part in key.parts where part.kind != .file {
            let shown = part.detail.map { " = \($0)" } ?? ""
            text += "    \(part.kind.rawValue) \(part.name)\(shown)  \(part.digest.prefix(12))\n"
        }
        if let hit {
            text += "  in the cache: \(hit.summary)\n"
            text += recordedInputsText(of: hit)
            if let changed = changedInputs, !changed.isEmpty {
                text +=
                    "  runs all the same: \(changed.count) input\(changed.count == 1 ? "" : "s") it read changed (~)\n"
            } else if hit.recordedInputs == nil {
                text += "  runs all the same\n"
            }
            return text
        }
        text += "  not in the cache\n"
        guard let latest else {
            text += "  no earlier entry for \(key.testTarget) on this machine to compare with\n"
            return text
        }
        let since = latest.summary.replacingOccurrences(of: "cached: ", with: "")
        guard !latest.key.parts.isEmpty else {
            // Copied from a server that had lost them: there is nothing to compare part by part.
            text += "  the last entry (\(since)) is here without its key's parts: what changed is unknown\n"
            text += recordedInputsText(of: latest)
            return text
        }
        let changes = key.changes(since: latest.key)
        text += "  changed since the last entry (\(since)):\n"
        if changes.isEmpty { text += "    nothing: the key's recipe changed\n" }
        for change in changes.prefix(40) {
            let part = change.part
            switch change.what {
            case .added: text += "    + \(part.kind.rawValue) \(part.name)\n"
            case .removed: text += "    - \(part.kind.rawValue) \(part.name)\n"
            case .changed(let old):
                let values = [old.detail, part.detail].compactMap { $0 }
                let shown = values.count == 2 ? ": \(values[0]) → \(values[1])" : ""
                text += "    ~ \(part.kind.rawValue) \(part.name)\(shown)\n"
            }
        }
        if changes.count > 40 { text += "    … and \(changes.count - 40) more\n" }
        text += recordedInputsText(of: latest)
        return text
    }
}
