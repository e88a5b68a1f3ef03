import Foundation
import RibcagePackage
import Testing

/// Small packages written into temporary folders, shared by several suites.
enum PackageFixtures {
    /// Makes `folder` a git repository with everything in it in one commit, by an identity
    /// given on the command line: a new machine has no `user.name`.
    static func commitEverything(in folder: URL, message: String = "Fixture") async throws {
        for arguments in [
            ["init", "-q"], ["add", "."],
            ["-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-q", "-m", message],
        ] {
            let git = try await Shell.run("git", arguments, in: folder)
            try #require(git.succeeded, "git \(arguments.joined(separator: " ")): \(git.errorText)")
        }
    }

    /// A package mid-edit: a product over a target whose folder does not exist yet, which
    /// `swift package describe` refuses while `dump-package` (which only evaluates the
    /// manifest) reads it. `Feature` imports `Base` and the unresolvable `Missing`; `Loose`
    /// declares `Base` and never imports it; `Base` excludes a folder whose file imports
    /// something undeclared.
    static func unfinished() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Unfinished",
                products: [.library(name: "Empty", targets: ["Empty"])],
                dependencies: [.package(url: "https://github.com/example/missing", from: "1.0.0")],
                targets: [
                    .target(name: "Empty"),
                    .target(name: "Base", exclude: ["Notes"]),
                    .target(name: "Feature", dependencies: ["Base", .product(name: "Missing", package: "missing")]),
                    .target(name: "Loose", dependencies: ["Base"]),
                ])
            """, to: "Package.swift")
        try folder.write("public let base = 1\n", to: "Sources/Base/Base.swift")
        try folder.write("import Undeclared\n", to: "Sources/Base/Notes/Excluded.swift")
        try folder.write("import Base\nimport Missing\n", to: "Sources/Feature/Feature.swift")
        try folder.write("import Foundation\n", to: "Sources/Loose/Loose.swift")
        return folder
    }
}
