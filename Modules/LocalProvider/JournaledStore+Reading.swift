import Foundation
import SystemPackage

/// Reading a ``JournaledStore``'s files into its state: the whole of them on a load or after
/// another process folded, the lines appended since otherwise. What is damaged is set aside
/// here, under the folder's lock, and reported to the caller.
extension JournaledStore {
    /// Brings `stored` up to what the files hold.
    func catchUp(_ stored: inout State?, settingAsideInto setAside: inout [StorageError]) throws {
        if let current = stored, try FileIO.identity(of: journalURL) == current.journalIdentity {
            guard let journal = current.journal else { return }  // still no journal
            let length: Int64
            do {
                length = try journal.stat().size
            } catch {
                throw StorageError.fileSystem(operation: "fstat", path: journalURL.path, errno: error)
            }
            if length == current.journalLength { return }
            if length > current.journalLength {
                var current = current
                defer { stored = current }
                let tail = try FileIO.readToEnd(journal, from: current.journalLength, path: journalURL.path)
                setAside += try apply(tail, to: &current)
                return
            }
        }
        // Another process folded (a new journal file), or this store has not loaded yet.
        try reload(&stored, settingAsideInto: &setAside)
    }

    /// Replaces `stored` with a state read from the files. If reading fails, the store is left
    /// unloaded, and the next operation reads again.
    func reload(_ stored: inout State?, settingAsideInto setAside: inout [StorageError]) throws {
        if let old = stored?.journal { try? old.close() }  // every line written through it was fsynced
        stored = nil
        stored = try readFiles(settingAsideInto: &setAside)
    }

    /// Reads both files into a new state, setting aside what is damaged.
    private func readFiles(settingAsideInto setAside: inout [StorageError]) throws -> State {
        let (value, sequence) = try readSnapshot(settingAsideInto: &setAside)
        var state = State(
            value: value, sequence: sequence, snapshotSequence: sequence, journal: nil, journalIdentity: nil,
            journalIsLinked: false, journalLength: 0, journalLines: 0)
        guard let (journal, identity, linked) = try openJournal(settingAsideInto: &setAside) else {
            return state
        }
        state.journal = journal
        state.journalIdentity = identity
        state.journalIsLinked = linked
        do {
            setAside += try apply(try FileIO.readToEnd(journal, path: journalURL.path), to: &state)
        } catch {
            if let current = state.journal { try? current.close() }  // nothing unsynced was written
            throw error
        }
        return state
    }

    private func readSnapshot(settingAsideInto setAside: inout [StorageError]) throws -> (Value, Int) {
        let reason: DamageReason
        let identity: FileIdentity
        switch try FileIO.read(snapshotURL) {
        case .absent:
            return (Value(), 0)
        case .notAFile(let file):
            (reason, identity) = (.notAFile, file)
        case .file(let data, let file):
            identity = file
            switch codec.decode(data, for: key, now: .distantPast) {
            case .value(let snapshot, _, let sequence):
                do {
                    return (try Value(snapshot: snapshot), sequence ?? 0)
                } catch {
                    reason = .inconsistentSnapshot(underlying: error)
                }
            case .damaged(let damage):
                reason = damage
            case .expired:
                // A snapshot has no expiry date, and nothing is expired at `.distantPast`.
                reason = .unreadableBytes(underlying: CocoaError(.propertyListReadCorrupt))
            }
        }
        // Under the folder lock, the file is still the one read.
        if let aside = try SetAside.move(snapshotURL, ifStill: identity) {
            setAside.append(.damaged(file: snapshotURL, setAsideAt: aside, reason: reason))
        }
        return (Value(), 0)
    }

    /// The journal open for appending, or `nil` when there is none (or it was not a file and was
    /// set aside). A journal that is a symbolic link is opened for reading only, and `linked`:
    /// appending through it would change a file outside the folder, so the next change folds
    /// first, which puts a journal of the folder's own in the link's place.
    private func openJournal(settingAsideInto setAside: inout [StorageError]) throws -> (
        FileDescriptor, FileIdentity, linked: Bool
    )? {
        let linked = try FileIO.status(of: journalURL, followingLinks: false)?.type == .symbolicLink
        let opened =
            try linked
            ? FileIO.open(journalURL, .readOnly) : FileIO.open(journalURL, .readWrite, options: [.append])
        switch opened {
        case .absent:
            return nil
        case .file(let journal, let identity):
            return (journal, identity, linked)
        case .notAFile(let identity):
            if let aside = try SetAside.move(journalURL, ifStill: identity) {
                setAside.append(.damaged(file: journalURL, setAsideAt: aside, reason: .notAFile))
            }
            return nil
        }
    }

    /// Applies the journal bytes `tail`, read from the end of what `state` holds: cuts off a
    /// torn last line, and sets the journal aside (then folds) when a line is damaged.
    private func apply(_ tail: Data, to state: inout State) throws -> [StorageError] {
        let lines = JournalLines<Value.Change>(tail, linesBefore: state.journalLines)
        for entry in lines.entries where entry.sequence > state.sequence {
            state.value.apply(entry.change)
            state.sequence = entry.sequence
        }
        state.journalLength += Int64(lines.wholeLength)
        state.journalLines += lines.lineCount
        // A linked journal's file is not the store's to cut: the next change folds instead.
        if lines.wholeLength < tail.count, !state.journalIsLinked, let journal = state.journal {
            try truncate(journal, to: state.journalLength)
        }
        guard !lines.damagedLines.isEmpty, let identity = state.journalIdentity,
            let aside = try SetAside.copy(journalURL, ifStill: identity)
        else { return [] }
        // The copy keeps the journal as it was; the fold writes what was readable and starts
        // a clean journal.
        try fold(&state)
        return [.damaged(file: journalURL, setAsideAt: aside, reason: .journalLines(lines.damagedLines))]
    }
}
