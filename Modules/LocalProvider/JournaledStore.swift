import Foundation
import Synchronization
import SystemPackage

/// A large value that changes a little at a time, kept as a snapshot plus a journal of the
/// changes since: `<folder>/<name>.snapshot` and `<folder>/<name>.journal`.
///
/// Appending a change writes one line to the journal and `fsync`s it, so a change costs the same
/// with ten elements as with ten thousand. Every ``foldThreshold`` changes, the value is written
/// whole as a new snapshot and the journal starts again. Opening reads the snapshot and applies
/// the journal's changes after it.
///
/// ```swift
/// let store = try JournaledStore<Shelf>(folder: dataFolder, name: "shelf")
/// let loaded = try await store.load()    // loaded.value; loaded.setAside says what was damaged
/// try await store.append(.added(book))   // on the disk once this returns
/// ```
///
/// Each operation comes in two forms, as ``LocalStore``'s do. In async code Swift picks the
/// `async` one, which does the file work — waiting for another process's lock, reading,
/// appending, `fsync` — on a queue of the store's own and holds no thread of the cooperative pool
/// meanwhile; a cancelled task stops waiting for the lock with `CancellationError`, and nothing
/// is changed. The synchronous form is for callers that are not async, and blocks its thread for
/// the same work (waiting for the lock at most `lockTimeout`).
///
/// What it guarantees:
/// - **A change that `append` acknowledged survives** the process being killed at any moment,
///   a fold included, and a power loss: the line is `fsync`ed before `append` returns, and a
///   fold makes its snapshot durable before it replaces the journal.
/// - **A cut-short write is never mistaken for a change.** A line counts only once its newline
///   is written; a torn tail (after a kill, or a full disk) was never acknowledged and is cut
///   off before the next append, which would otherwise be glued to it.
/// - **Damage is set aside, never built over.** A snapshot that cannot be used (not a property
///   list, another type, a schema version without a migration, a value that
///   ``Journaled/init(snapshot:)`` refuses, a folder or a FIFO in its place) is moved aside;
///   journal lines that are not changes are reported and the journal is kept aside as it was.
///   Everything still readable is loaded and kept; the store folds only what it has read. A file
///   it cannot open (no permission) is an error, and then the store writes nothing until a load
///   succeeds.
/// - **A symbolic link is read through, never written through.** A dotfile manager may keep
///   the files elsewhere and link them here. The first change after reading a linked journal
///   folds, which puts files of the folder's own in the links' place by renames; a link set
///   aside is moved as the link. The files they lead to are never written, cut, moved or
///   deleted. A link that leads nowhere reads as absent.
/// - **Processes sharing the folder** keep each other's changes: each append and fold is made
///   under a lock on the folder, after reading what other processes appended or folded since.
///
/// The store keeps the value as the files hold it, to fold it, but does not show it: its
/// caller keeps the value it works with itself (the TodoApp's list, in the Todo screen's state)
/// and hands the store each change. ``load()`` returns what was read.
public final class JournaledStore<Value: Journaled>: Sendable {
    /// The folder the two files live in.
    public let folder: URL
    /// The files' base name.
    public let name: String
    /// Changes appended before the value is written whole again.
    public let foldThreshold: Int
    let key: StorageKey<Value.Snapshot>
    private let lock: FolderLock
    let codec = EnvelopeCodec(format: .binary)
    /// Read and changed only while holding the folder's ``FolderLock``, which also keeps this
    /// process's threads apart; so this mutex is never waited for while another process holds
    /// the folder.
    private let state = Mutex<State?>(nil)
    let io = IOQueue(label: "JournaledStore")

    /// What the store holds once loaded, and how it matches the files.
    struct State {
        var value: Value
        /// The sequence number of the last change applied to `value`.
        var sequence: Int
        /// The sequence number of the last change the snapshot file holds.
        var snapshotSequence: Int
        /// The journal, open for appending (for reading only when it is a link); `nil` while
        /// there is no journal file.
        var journal: FileDescriptor?
        var journalIdentity: FileIdentity?
        /// The journal is a symbolic link, open for reading only: the next change folds first.
        var journalIsLinked: Bool
        /// The journal's bytes that this state has read or written: whole lines only.
        var journalLength: Int64
        var journalLines: Int
    }

    /// What ``load()`` read.
    public struct Loaded: Sendable {
        /// The value: the snapshot with the journal's changes applied, or what of them was
        /// readable.
        public var value: Value
        /// What was damaged and set aside while loading, each a
        /// ``StorageError/damaged(file:setAsideAt:reason:)`` that names the copy; empty when all
        /// was read.
        public var setAside: [StorageError]
    }

    /// A store of `<folder>/<name>.snapshot` and `<folder>/<name>.journal`. Nothing is read
    /// until ``load()``; the name is checked then, as a ``StorageKey``'s is when it is used.
    ///
    /// - Parameters:
    ///   - folder: Created (0700) when the store first loads or writes.
    ///   - name: The files' base name, a valid ``StorageKey`` name.
    ///   - snapshotVersion: The schema version of `Value.Snapshot`; bump it when its shape
    ///     changes.
    ///   - migrate: Reads a snapshot stored with an older version, as a ``StorageKey``'s
    ///     migration does.
    ///   - foldThreshold: Changes appended before the value is written whole again.
    ///   - lockTimeout: The longest a change waits for another process's change.
    public init(
        folder: URL, name: String, snapshotVersion: Int = 1,
        migrate: StorageKey<Value.Snapshot>.Migration? = nil, foldThreshold: Int = 256,
        lockTimeout: Duration = .seconds(5)
    ) {
        key = StorageKey(name, version: snapshotVersion, migrate: migrate)
        self.folder = folder
        self.name = name
        self.foldThreshold = max(1, foldThreshold)
        lock = FolderLock(folder: folder, timeout: lockTimeout)
    }

    deinit {
        state.withLock { state in
            // Every line in it was fsynced when it was appended; nothing is left to lose.
            if let journal = state?.journal { try? journal.close() }
        }
    }

    /// `<name>.snapshot` in the folder: the value as of the last fold, replaced whole by a rename.
    public var snapshotURL: URL { folder.appendingPathComponent("\(name).snapshot", isDirectory: false) }
    /// `<name>.journal` in the folder: the changes since the last fold, one fsynced line each.
    public var journalURL: URL { folder.appendingPathComponent("\(name).journal", isDirectory: false) }

    /// Reads the files: the snapshot, then the journal's changes after it. What is damaged is set
    /// aside and listed in ``Loaded/setAside``; what is readable is loaded. Removes the
    /// temporary files of killed writers.
    ///
    /// - Throws: ``StorageError/fileSystem(operation:path:errno:)`` when a file cannot be opened
    ///   or read (nothing is set aside then, and the store stays unloaded),
    ///   ``StorageError/lockTimeout(folder:waited:)``, or ``StorageError/invalidKey(_:reason:)``
    ///   for a name that breaks ``StorageKey``'s rules.
    public func load() throws -> Loaded {
        try key.validate()
        try FileIO.createDirectory(folder)
        return try withLockedState { stored in
            try AtomicFile.removeTemporaryFiles(in: folder) { [snapshotURL, journalURL] in
                $0 == snapshotURL.lastPathComponent || $0 == journalURL.lastPathComponent
            }
            var setAside: [StorageError] = []
            try reload(&stored, settingAsideInto: &setAside)
            guard let loaded = stored else { preconditionFailure("reload leaves a state or throws") }
            return Loaded(value: loaded.value, setAside: setAside)
        }
    }

    /// Appends `change` and applies it to the value the store keeps; once this returns, the change survives a
    /// kill and a power loss. Every ``foldThreshold`` changes, also folds.
    ///
    /// Loads first when the store is not loaded, and reads first what other processes wrote.
    ///
    /// - Throws: What writing failed with — the change was not made, in memory or on the disk —
    ///   or a ``StorageError/damaged(file:setAsideAt:reason:)`` found while reading first: it was
    ///   set aside, the change was not made, and appending again works.
    public func append(_ change: Value.Change) throws {
        try withCurrentState { state in
            try write(change, to: &state)
            guard state.sequence - state.snapshotSequence >= foldThreshold else { return }
            do {
                try fold(&state)
            } catch {
                // The change is safe in the journal; the fold is tried again at the next append,
                // and until then the journal grows.
            }
        }
    }

    /// Writes the value whole as the snapshot and empties the journal.
    ///
    /// - Throws: As ``append(_:)``.
    public func fold() throws {
        try withCurrentState { try fold(&$0) }
    }

    /// Replaces the whole value with `value` and folds: for importing data kept another way.
    ///
    /// - Throws: As ``append(_:)``.
    public func replace(with value: Value) throws {
        try withCurrentState { state in
            state.value = value
            try fold(&state)
        }
    }

    // MARK: - Under the locks

    /// Runs `body` under both locks on the state brought up to what the files hold: loaded when
    /// there is none or another process folded, with the lines other processes appended read
    /// otherwise. Damage found on the way is set aside and thrown before `body` runs.
    private func withCurrentState(_ body: (inout State) throws -> Void) throws {
        try key.validate()
        try FileIO.createDirectory(folder)
        try withLockedState { stored in
            var setAside: [StorageError] = []
            try catchUp(&stored, settingAsideInto: &setAside)
            if let damage = setAside.first { throw damage }
            // Taken out, so that `body` changes the only reference to the value, in place.
            guard var current = stored.take() else { preconditionFailure("catchUp leaves a state or throws") }
            defer { stored = current }
            try body(&current)
        }
    }

    /// Runs `body` on the state holding the folder's lock. The folder's lock comes first:
    /// waiting for another process never holds `state`.
    private func withLockedState<T>(_ body: (inout State?) throws -> T) throws -> T {
        try lock.withLock {
            try state.withLock { stored in try body(&stored) }
        }
    }

    /// Appends the line for `change`, `fsync`s it, and only then applies it.
    private func write(_ change: Value.Change, to state: inout State) throws {
        let line = try JournalLines<Value.Change>.line(for: change, sequence: state.sequence + 1)
        let journal = try writableJournal(&state)
        do {
            do {
                _ = try journal.writeAll(line)
            } catch {
                throw FileIO.failure("append to", journalURL.path, error)
            }
            try FileIO.sync(journal, path: journalURL.path)
        } catch {
            // Cut off what was written, so that the next append starts on a line of its own.
            try? truncate(journal, to: state.journalLength)  // failing that, the next load cuts it
            throw error
        }
        state.journalLength += Int64(line.count)
        state.journalLines += 1
        state.sequence += 1
        state.value.apply(change)
    }

    /// The journal to append to. When there is none, a new one; when it is a link, the value is
    /// folded first, so that the changes read through the link are in the snapshot before a
    /// journal of the folder's own replaces it.
    private func writableJournal(_ state: inout State) throws -> FileDescriptor {
        if state.journalIsLinked { try fold(&state) }
        if let journal = state.journal { return journal }
        return try startJournal(&state)
    }

    /// Writes the value as the snapshot, durably, then puts an empty journal in place of the old.
    /// A crash between the two leaves journal lines that the snapshot holds; loading skips them by
    /// their sequence numbers.
    func fold(_ state: inout State) throws {
        let snapshot = try codec.encode(
            state.value.snapshot, for: key, expiresAt: nil, sequence: state.sequence)
        try AtomicFile.write(snapshot, to: snapshotURL, syncingDirectory: true)
        state.snapshotSequence = state.sequence
        try startJournal(&state)
    }

    /// Puts a new, empty journal in place, by a rename: over the old journal, or over a link
    /// that leads nowhere, which an exclusive create would fail on. Its name is on the disk
    /// before this returns, so a change appended to it counts once its line is `fsync`ed.
    @discardableResult
    private func startJournal(_ state: inout State) throws -> FileDescriptor {
        let temporary = AtomicFile.temporaryFile(for: journalURL)
        let journal = try AtomicFile.create(temporary)
        let identity: FileIdentity
        do {
            identity = FileIdentity(try journal.stat())
            try FileIO.check("rename", journalURL.path) { rename(temporary.path, journalURL.path) }
        } catch {
            try? journal.close()  // empty and never renamed into place
            try FileIO.remove(temporary)
            throw error
        }
        try FileIO.syncDirectory(folder)
        if let old = state.journal { try? old.close() }  // every line in it was fsynced
        state.journal = journal
        state.journalIdentity = identity
        state.journalIsLinked = false
        state.journalLength = 0
        state.journalLines = 0
        return journal
    }

    func truncate(_ journal: FileDescriptor, to length: Int64) throws {
        do {
            try journal.resize(to: length)
        } catch {
            throw FileIO.failure("truncate", journalURL.path, error)
        }
        try FileIO.sync(journal, path: journalURL.path)
    }
}
