import Foundation
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Damaged files are set aside, never deleted and never written over: they get a name of their
/// own next to where they were, `<name>.damaged-<UTC time>` (with `-2`, `-3`… when that name is
/// taken), for a person to look at. Creating that name fails if it exists (`link`, `mkdir`), so
/// an earlier set-aside copy is never replaced, however many come in the same second.
///
/// The stores' callers hold the folder's ``FolderLock`` and say which file they read: a path that
/// holds another file by now (another process saved a fresh value) is left alone.
///
/// A symbolic link in the folder (a dotfile manager's, say) was read through, so "the file they
/// read" is the one it leads to; but what is set aside is the folder's own entry, the link, and
/// the aside name is a link to the same place. The file it leads to is outside the store's care:
/// never moved, changed or deleted.
public enum SetAside {
    /// Moves the file or folder at `url` aside, as the stores do with what they cannot read,
    /// and returns its new place: for a module that reads files of its own, such as an older
    /// format it migrates from.
    ///
    /// - Throws: ``StorageError/fileSystem(operation:path:errno:)``, also when nothing is at `url`
    ///   or a link there leads nowhere.
    public static func move(_ url: URL) throws -> URL {
        guard let identity = try FileIO.identity(of: url), let aside = try move(url, ifStill: identity) else {
            throw StorageError.fileSystem(
                operation: "set aside", path: url.path, errno: .noSuchFileOrDirectory)
        }
        return aside
    }

    /// Moves the entry at `url` aside, if the file it is or leads to is still `identity`, and
    /// returns its new place; `nil` if the path holds something else now.
    static func move(_ url: URL, ifStill identity: FileIdentity) throws(StorageError) -> URL? {
        guard try FileIO.identity(of: url) == identity,
            let entry = try FileIO.status(of: url, followingLinks: false)
        else { return nil }
        let aside: URL
        if entry.type == .directory {
            // A folder cannot be linked: claim a fresh name with mkdir, then rename over that
            // empty folder, which rename allows. Only for a folder itself: rename refuses to put
            // a link to a folder over one.
            aside = try claimName(for: url) { mkdir($0, 0o700) }
            try FileIO.check("rename", url.path) { rename(url.path, aside.path) }
        } else {
            aside = try claimName(for: url) { secondName(for: url, $0) }
            try FileIO.check("unlink", url.path) { unlink(url.path) }
        }
        try FileIO.syncDirectory(url.deletingLastPathComponent())
        return aside
    }

    /// Keeps a copy of the file at `url` aside — a second name for the same bytes — if it is
    /// still `identity`, and leaves the file in place; `nil` if the path holds something else.
    /// For a file of many values of which one is damaged: the store then rewrites the file
    /// without it, and the copy keeps the file as it was. A link's copy is a second link to the
    /// same file, which the rewrite, a rename over the link, leaves alone.
    static func copy(_ url: URL, ifStill identity: FileIdentity) throws(StorageError) -> URL? {
        guard try FileIO.identity(of: url) == identity else { return nil }
        let aside = try claimName(for: url) { secondName(for: url, $0) }
        try FileIO.syncDirectory(url.deletingLastPathComponent())
        return aside
    }

    /// Gives the entry at `url` the name `path` too: a hard link to the entry itself, a symbolic
    /// link included (`linkat` without `AT_SYMLINK_FOLLOW`; plain `link` follows one on some
    /// systems, and would make a second name for a file outside the folder).
    private static func secondName(for url: URL, _ path: String) -> Int32 {
        linkat(AT_FDCWD, url.path, AT_FDCWD, path, 0)
    }

    /// Creates the first free set-aside name for `url` with `create`, which fails with `EEXIST`
    /// when the name is taken.
    private static func claimName(for url: URL, with create: (String) -> Int32) throws(StorageError) -> URL {
        let stamp = timestamp()
        var attempt = 1
        while true {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let candidate = url.deletingLastPathComponent()
                .appendingPathComponent(
                    "\(url.lastPathComponent).damaged-\(stamp)\(suffix)", isDirectory: false)
            if create(candidate.path) == 0 { return candidate }
            guard errno == EEXIST else { throw FileIO.failure("set aside", candidate.path) }
            attempt += 1
        }
    }

    /// The time now in UTC, `20261123T210501Z`: sorts by time and reads at a glance.
    private static func timestamp() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
