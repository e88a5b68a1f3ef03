import ArgumentParser
import Foundation
import RibcagePackage

/// The `--path` option every command takes.
struct PackageOptions: ParsableArguments {
    @Option(
        help: "The package folder (default: the current folder or the nearest one above it).",
        completion: .directory)
    var path: String?

    /// The folder holding the package's Package.swift.
    func root() throws -> URL {
        try PackageLocator.root(fromPath: path)
    }
}

/// Writes to standard error, where notes, progress and errors go.
enum StandardError {
    @Sendable static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `text` and a line break: what the libraries' notes and warnings are handed to.
    @Sendable static func writeLine(_ text: String) {
        write(text + "\n")
    }
}

extension RibcageError {
    /// Runs a command's body, printing a ``RibcageError`` as `error: …` and exiting with its code.
    static func reported(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as RibcageError {
            StandardError.write("error: \(error)\n")
            throw ExitCode(error.exitCode)
        }
    }
}
