import Foundation

/// Finds the SwiftPM package that a command works on.
package enum PackageLocator {
    /// The folder holding `Package.swift`: `start` itself or the nearest folder above it.
    ///
    /// - Throws: ``RibcageError/noPackage(path:)`` when no folder up to `/` has a manifest.
    package static func root(from start: URL) throws -> URL {
        var folder = start.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { throw RibcageError.noPackage(path: start.path) }
            folder = parent
        }
    }

    /// ``root(from:)`` for a path typed by a person, or the current folder when it is `nil`.
    package static func root(fromPath path: String?) throws -> URL {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        guard let path else { return try root(from: cwd) }
        let url = URL(fileURLWithPath: path, isDirectory: true, relativeTo: cwd)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw RibcageError.noPackage(path: url.path) }
        return try root(from: url)
    }
}
